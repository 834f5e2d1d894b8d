/** Inspector form of `source.nexmark`: events, seed, rate, base time and watermark delay. */
import { DurationField, NumberField } from '../fields/fields.tsx';
import { editConfig } from './edit.ts';
import type { FormProps } from './NodeForms.tsx';

export function NexmarkForm({ node, err }: FormProps<'source.nexmark'>) {
  const c = node.config;
  return (
    <>
      <NumberField
        label="Events"
        value={c.events}
        integer
        min={1}
        testId="f-events"
        placeholder="unbounded"
        error={err('events')}
        hint="Persons, auctions and bids together (1 : 3 : 46)"
        onChange={(v) => editConfig(node.id, ['events'], v)}
      />
      <NumberField
        label="Seed"
        value={c.seed}
        integer
        min={0}
        testId="f-seed"
        placeholder="0"
        error={err('seed')}
        hint="Same seed and events: the same data (weir nexmark generate writes it to files)"
        onChange={(v) => editConfig(node.id, ['seed'], v)}
      />
      <NumberField
        label="Rate (events/s)"
        value={c.rate}
        min={0}
        testId="f-rate"
        placeholder="as fast as possible"
        error={err('rate')}
        hint="Also spaces event time (default 10 000 events per second of event time)"
        onChange={(v) => editConfig(node.id, ['rate'], v)}
      />
      <NumberField
        label="Base time (epoch ms)"
        value={c.baseTime}
        integer
        testId="f-baseTime"
        placeholder="1700000000000"
        error={err('baseTime')}
        onChange={(v) => editConfig(node.id, ['baseTime'], v)}
      />
      <DurationField
        label="Watermark delay"
        value={c.maxOutOfOrderness}
        testId="f-maxOutOfOrderness"
        placeholder="4s"
        error={err('maxOutOfOrderness')}
        onChange={(v) => editConfig(node.id, ['maxOutOfOrderness'], v)}
      />
    </>
  );
}
