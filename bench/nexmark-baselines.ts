/**
 * Flink's published Nexmark throughput per core: the "Throughput/Cores" column of the benchmark
 * table in the nexmark repository's README (github.com/nexmark/nexmark, README.md at commit
 * 14d126f and before; 100,000,000 events per query, Flink on 8 to 21 cores, events per second per
 * core). q6 is not run by Flink (FLINK-19059); q23 has no published figure.
 */
export const FLINK_PER_CORE: Readonly<Record<string, number>> = {
  q0: 155_020,
  q1: 157_940,
  q2: 175_210,
  q3: 152_120,
  q4: 34_330,
  q5: 22_140,
  q7: 12_330,
  q8: 146_140,
  q9: 14_240,
  q10: 57_810,
  q11: 39_700,
  q12: 75_670,
  q13: 130_730,
  q14: 161_230,
  q15: 72_420,
  q16: 18_650,
  q17: 116_800,
  q18: 53_700,
  q19: 44_040,
  q20: 18_980,
  q21: 98_490,
  q22: 129_960,
};

export const FLINK_BASELINE_NAME = 'Flink per core (nexmark README)';
