/** The Nexmark suite's Flink SQL imported into Weir vs run on Flink 1.20 (nexmark-on-flink.ts). */
import { NEXMARK_KNOWN_DIFFERENCES, nexmarkOnFlink } from './nexmark-on-flink.ts';

nexmarkOnFlink('1.20', NEXMARK_KNOWN_DIFFERENCES);
