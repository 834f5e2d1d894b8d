/**
 * The Nexmark event generator, ported from the Nexmark suite's Flink generator
 * (nexmark-flink/.../generator: GeneratorConfig, NexmarkGenerator, model/*Generator). Everything
 * but the random draws is Flink's: event n is a person, an auction or a bid by `n % 50` (1 : 3 : 46),
 * ids count up from 1000 in step with the event numbers, sellers, bidders and auctions are "hot"
 * (a fixed id per 100) with Flink's ratios, names, cities, states, prices (10^U(0,6) cents),
 * auction lengths and `extra` sizes follow Flink's distributions, and event n's time is
 * `baseTime + floor(n * interEventDelayUs) / 1000` with `interEventDelayUs = 10^6 / rate`.
 *
 * Two things differ on purpose. The random draws (see nexmark-random.ts) are seeded per event, so
 * events are reproducible; Flink's are not. And, as in Flink's BidGenerator, a bid's bidder has
 * FIRST_PERSON_ID (1000) added twice, so bidder ids start at 2000: kept, so that queries joining
 * bidders with persons behave as on Flink.
 */
import type { Row } from '../../contracts/operator.ts';
import {
  NEXMARK_DEFAULT_BASE_TIME,
  NEXMARK_DEFAULT_EVENT_RATE,
  NEXMARK_DEFAULT_OUT_OF_ORDERNESS_MS,
  type NexmarkPort,
} from '../../graph/nexmark.ts';
import { NexmarkRandom, mixSeed } from './nexmark-random.ts';
import { HOT_CHANNELS, nextExtra, nextString, nexmarkTables, type NexmarkTables } from './nexmark-strings.ts';
import { NEXMARK_DEFAULTS } from '../../nodes/source-nexmark/definition.ts';

const FIRST_AUCTION_ID = 1000;
const FIRST_PERSON_ID = 1000;
const FIRST_CATEGORY_ID = 10;
const PERSON_PROPORTION = 1;
const AUCTION_PROPORTION = 3;
const TOTAL_PROPORTION = 50;
const NUM_CATEGORIES = 5;
const AUCTION_ID_LEAD = 10;
const PERSON_ID_LEAD = 10;
const HOT_SELLER_RATIO = 100;
const HOT_AUCTION_RATIO = 100;
const HOT_BIDDER_RATIO = 100;
const HOT_CHANNELS_RATIO = 2;
/** NexmarkConfiguration defaults. */
const NUM_ACTIVE_PEOPLE = 1000;
const NUM_IN_FLIGHT_AUCTIONS = 100;
const HOT_AUCTIONS = 2;
const HOT_SELLERS = 4;
const HOT_BIDDERS = 4;
const AVG_PERSON_BYTES = 200;
const AVG_AUCTION_BYTES = 500;
const AVG_BID_BYTES = 100;

const US_STATES = ['AZ', 'CA', 'ID', 'OR', 'WA', 'WY'];
const US_CITIES = [
  'Phoenix',
  'Los Angeles',
  'San Francisco',
  'Boise',
  'Portland',
  'Bend',
  'Redmond',
  'Seattle',
  'Kent',
  'Cheyenne',
];
const FIRST_NAMES = ['Peter', 'Paul', 'Luke', 'John', 'Saul', 'Vicky', 'Kate', 'Julie', 'Sarah', 'Deiter', 'Walter'];
const LAST_NAMES = ['Shultz', 'Abrams', 'Spencer', 'White', 'Bartels', 'Walton', 'Smith', 'Jones', 'Noris'];
const CREDIT_CARD_STRINGS = Array.from({ length: 10_000 }, (_, i) => String(i).padStart(4, '0'));

export interface NexmarkParams {
  seed: number;
  /** Number of events; null = unbounded. */
  events: number | null;
  /** Events per second: emission is throttled to it, and it spaces event time. Null = as fast as possible. */
  rate: number | null;
  baseTime: number;
  maxOutOfOrderness: number;
}

export interface NexmarkConfigInput {
  events?: number;
  seed?: number;
  rate?: number;
  baseTime?: number;
}

export function nexmarkParams(c: NexmarkConfigInput, maxOutOfOrderness?: number): NexmarkParams {
  return {
    seed: c.seed ?? NEXMARK_DEFAULTS.seed,
    events: c.events ?? null,
    rate: c.rate ?? null,
    baseTime: c.baseTime ?? NEXMARK_DEFAULT_BASE_TIME,
    maxOutOfOrderness: maxOutOfOrderness ?? NEXMARK_DEFAULT_OUT_OF_ORDERNESS_MS,
  };
}

/** Which port event n goes to (NexmarkGenerator.nextEvent: `eventId % totalProportion`). */
export function nexmarkKind(n: number): NexmarkPort {
  const rem = n % TOTAL_PROPORTION;
  return rem < PERSON_PROPORTION ? 'person' : rem < PERSON_PROPORTION + AUCTION_PROPORTION ? 'auction' : 'bid';
}

function lastBase0PersonId(eventId: number): number {
  const epoch = Math.floor(eventId / TOTAL_PROPORTION);
  let offset = eventId % TOTAL_PROPORTION;
  if (offset >= PERSON_PROPORTION) offset = PERSON_PROPORTION - 1;
  return epoch * PERSON_PROPORTION + offset;
}

function lastBase0AuctionId(eventId: number): number {
  let epoch = Math.floor(eventId / TOTAL_PROPORTION);
  let offset = eventId % TOTAL_PROPORTION;
  if (offset < PERSON_PROPORTION) {
    epoch--;
    offset = AUCTION_PROPORTION - 1;
  } else if (offset >= PERSON_PROPORTION + AUCTION_PROPORTION) {
    offset = AUCTION_PROPORTION - 1;
  } else {
    offset -= PERSON_PROPORTION;
  }
  return epoch * AUCTION_PROPORTION + offset;
}

function nextBase0PersonId(eventId: number, r: NexmarkRandom): number {
  const numPeople = lastBase0PersonId(eventId) + 1;
  const activePeople = Math.min(numPeople, NUM_ACTIVE_PEOPLE);
  return numPeople - activePeople + r.nextInt(activePeople + PERSON_ID_LEAD);
}

function nextBase0AuctionId(eventId: number, r: NexmarkRandom): number {
  const maxAuction = lastBase0AuctionId(eventId);
  const minAuction = Math.max(maxAuction - NUM_IN_FLIGHT_AUCTIONS, 0);
  return minAuction + r.nextInt(maxAuction - minAuction + 1 + AUCTION_ID_LEAD);
}

/**
 * PriceGenerator.nextPrice: `round(10^U(0,6) * 100)` cents. With U = u / 2^32 for a 32-bit draw u,
 * 10^(6U) = 10^(6 hi 2^16 / 2^32) * 10^(6 lo / 2^32) for u's high and low 16 bits: two table
 * lookups and a multiply instead of a pow (the tables hold 2 * 65 536 doubles).
 * Filled by the first generator, not at load: the 131 072 pows took ~15 ms of every task process's
 * start-up (issue 27), Nexmark job or not.
 */
const PRICE_HI = new Float64Array(65536);
const PRICE_LO = new Float64Array(65536);
let priceTablesFilled = false;
function fillPriceTables(): void {
  if (priceTablesFilled) return;
  for (let i = 0; i < 65536; i++) {
    PRICE_HI[i] = Math.pow(10, (6 * i * 65536) / 4294967296) * 100;
    PRICE_LO[i] = Math.pow(10, (6 * i) / 4294967296);
  }
  priceTablesFilled = true;
}
function nextPrice(r: NexmarkRandom): number {
  const u = r.nextU32();
  return Math.round(PRICE_HI[u >>> 16] * PRICE_LO[u & 0xffff]);
}

/** Generates event n of a seed; one instance per reader (it reuses its random stream). */
export class NexmarkGenerator {
  private readonly r = new NexmarkRandom();
  private readonly t: NexmarkTables;
  private readonly interEventDelayUs: number;

  constructor(readonly p: NexmarkParams) {
    fillPriceTables();
    this.t = nexmarkTables(p.seed);
    this.interEventDelayUs = 1_000_000 / (p.rate ?? NEXMARK_DEFAULT_EVENT_RATE);
  }

  /** GeneratorConfig.timestampForEvent. */
  timestamp(n: number): number {
    return this.p.baseTime + Math.floor(Math.floor(n * this.interEventDelayUs) / 1000);
  }

  /** Event n as its port's row (fields in the DDL's order). */
  event(n: number): Row {
    this.r.reseed(mixSeed(this.p.seed, n));
    const rem = n % TOTAL_PROPORTION;
    if (rem < PERSON_PROPORTION) return this.person(n);
    if (rem < PERSON_PROPORTION + AUCTION_PROPORTION) return this.auction(n);
    return this.bid(n);
  }

  private person(n: number): Row {
    const r = this.r;
    const id = lastBase0PersonId(n) + FIRST_PERSON_ID;
    const name = FIRST_NAMES[r.nextInt(FIRST_NAMES.length)] + ' ' + LAST_NAMES[r.nextInt(LAST_NAMES.length)];
    const emailAddress = nextString(r, 7) + '@' + nextString(r, 5) + '.com';
    const creditCard =
      CREDIT_CARD_STRINGS[r.nextInt(10_000)] +
      ' ' +
      CREDIT_CARD_STRINGS[r.nextInt(10_000)] +
      ' ' +
      CREDIT_CARD_STRINGS[r.nextInt(10_000)] +
      ' ' +
      CREDIT_CARD_STRINGS[r.nextInt(10_000)];
    const city = US_CITIES[r.nextInt(US_CITIES.length)];
    const state = US_STATES[r.nextInt(US_STATES.length)];
    const size = 8 + name.length + emailAddress.length + creditCard.length + city.length + state.length;
    const extra = nextExtra(r, this.t, size, AVG_PERSON_BYTES);
    return { id, name, emailAddress, creditCard, city, state, dateTime: this.timestamp(n), extra };
  }

  private auction(n: number): Row {
    const r = this.r;
    const dateTime = this.timestamp(n);
    const id = lastBase0AuctionId(n) + FIRST_AUCTION_ID;
    let seller: number;
    if (r.nextInt(HOT_SELLERS) > 0) seller = Math.floor(lastBase0PersonId(n) / HOT_SELLER_RATIO) * HOT_SELLER_RATIO;
    else seller = nextBase0PersonId(n, r);
    seller += FIRST_PERSON_ID;
    const category = FIRST_CATEGORY_ID + r.nextInt(NUM_CATEGORIES);
    const initialBid = nextPrice(r);
    // AuctionGenerator.nextAuctionLengthMs: up to twice the time until 100 more auctions exist.
    const numEventsForAuctions = Math.floor((NUM_IN_FLIGHT_AUCTIONS * TOTAL_PROPORTION) / AUCTION_PROPORTION);
    const horizonMs = this.timestamp(n + numEventsForAuctions) - dateTime;
    const expires = dateTime + 1 + r.nextInt(Math.max(horizonMs * 2, 1));
    const itemName = nextString(r, 20);
    const description = nextString(r, 100);
    const reserve = initialBid + nextPrice(r);
    const size = 8 + itemName.length + description.length + 8 + 8 + 8 + 8 + 8;
    const extra = nextExtra(r, this.t, size, AVG_AUCTION_BYTES);
    return { id, itemName, description, initialBid, reserve, dateTime, expires, seller, category, extra };
  }

  private bid(n: number): Row {
    const r = this.r;
    let auction: number;
    if (r.nextInt(HOT_AUCTIONS) > 0)
      auction = Math.floor(lastBase0AuctionId(n) / HOT_AUCTION_RATIO) * HOT_AUCTION_RATIO;
    else auction = nextBase0AuctionId(n, r);
    auction += FIRST_AUCTION_ID;
    let bidder: number;
    if (r.nextInt(HOT_BIDDERS) > 0) bidder = Math.floor(lastBase0PersonId(n) / HOT_BIDDER_RATIO) * HOT_BIDDER_RATIO + 1;
    else bidder = nextBase0PersonId(n, r);
    // Twice, as in Flink's BidGenerator (see the header).
    bidder += FIRST_PERSON_ID + FIRST_PERSON_ID;
    const price = nextPrice(r);
    let channel: string;
    let url: string;
    if (r.nextInt(HOT_CHANNELS_RATIO) > 0) {
      const i = r.nextInt(HOT_CHANNELS.length);
      channel = HOT_CHANNELS[i];
      url = this.t.hotUrls[i];
    } else {
      const c = r.nextInt(this.t.channels.length);
      channel = this.t.channels[c];
      url = this.t.channelUrls[c];
    }
    const extra = nextExtra(r, this.t, 8 + 8 + 8 + 8, AVG_BID_BYTES);
    return { auction, bidder, price, channel, url, dateTime: this.timestamp(n), extra };
  }
}
