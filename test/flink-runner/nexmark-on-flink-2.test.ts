/** The Nexmark suite's Flink SQL imported into Weir vs run on Flink 2.x (nexmark-on-flink.ts). */
import { NEXMARK_KNOWN_DIFFERENCES_2, nexmarkOnFlink } from './nexmark-on-flink.ts';

nexmarkOnFlink('2.x', NEXMARK_KNOWN_DIFFERENCES_2);
