/**
 * Typed form fields for the inspector. Each shows its label, an optional hint and the validator's
 * message for its path. `undefined` means "not set" (the engine's default applies; the
 * placeholder shows it), so clearing a field removes the key from the job.
 */
import { useId, type ReactNode } from 'react';

export interface FieldProps<T> {
  label: string;
  value: T | undefined;
  onChange: (value: T | undefined) => void;
  testId?: string;
  hint?: ReactNode;
  error?: string | null;
  placeholder?: string;
  disabled?: boolean;
}

export function Field({
  label,
  hint,
  error,
  children,
  htmlFor,
  errorId,
}: {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  children: ReactNode;
  htmlFor?: string;
  /** The error's element id, for the input's aria-describedby. */
  errorId?: string;
}) {
  return (
    <div className={`field${error ? ' field--error' : ''}`}>
      <label className="field__label" htmlFor={htmlFor}>
        {label}
      </label>
      {children}
      {error && (
        <div className="field__error" role="alert" id={errorId}>
          {error}
        </div>
      )}
      {hint && !error && <div className="field__hint">{hint}</div>}
    </div>
  );
}

export function TextField(p: FieldProps<string>) {
  const id = useId();
  return (
    <Field label={p.label} hint={p.hint} error={p.error} htmlFor={id}>
      <input
        id={id}
        className="input"
        type="text"
        value={p.value ?? ''}
        placeholder={p.placeholder}
        disabled={p.disabled}
        data-testid={p.testId}
        spellCheck={false}
        onChange={(e) => p.onChange(e.target.value === '' ? undefined : e.target.value)}
      />
    </Field>
  );
}

export function NumberField(p: FieldProps<number> & { min?: number; step?: number; integer?: boolean }) {
  const id = useId();
  return (
    <Field label={p.label} hint={p.hint} error={p.error} htmlFor={id}>
      <input
        id={id}
        className="input input--num"
        type="number"
        value={p.value ?? ''}
        placeholder={p.placeholder}
        min={p.min}
        step={p.step ?? (p.integer ? 1 : 'any')}
        disabled={p.disabled}
        data-testid={p.testId}
        onChange={(e) => {
          const v = e.target.value;
          if (v === '') return p.onChange(undefined);
          const n = Number(v);
          if (Number.isFinite(n)) p.onChange(n);
        }}
      />
    </Field>
  );
}

export function SelectField<T extends string>(
  p: FieldProps<T> & { options: ReadonlyArray<{ value: T; label: string }>; allowUnset?: string },
) {
  const id = useId();
  return (
    <Field label={p.label} hint={p.hint} error={p.error} htmlFor={id}>
      <select
        id={id}
        className="input select"
        value={p.value ?? ''}
        disabled={p.disabled}
        data-testid={p.testId}
        onChange={(e) => p.onChange(e.target.value === '' ? undefined : (e.target.value as T))}
      >
        {p.allowUnset !== undefined && <option value="">{p.allowUnset}</option>}
        {p.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function CheckField(p: FieldProps<boolean>) {
  return (
    <div className={`field field--check${p.error ? ' field--error' : ''}`}>
      <label className="check">
        <input
          type="checkbox"
          checked={!!p.value}
          disabled={p.disabled}
          data-testid={p.testId}
          onChange={(e) => p.onChange(e.target.checked ? true : undefined)}
        />
        <span>{p.label}</span>
      </label>
      {p.error && (
        <div className="field__error" role="alert">
          {p.error}
        </div>
      )}
      {p.hint && !p.error && <div className="field__hint">{p.hint}</div>}
    </div>
  );
}

const DURATION_UNITS = ['ms', 's', 'm', 'h', 'd'] as const;
const SIZE_UNITS = ['b', 'kb', 'mb', 'gb'] as const;
const AMOUNT = /^\s*(\d*(?:\.\d*)?)\s*([a-z]*)\s*$/i;

/** Splits `10s` into ['10', 's']; a bare number is in the base unit. */
export function splitAmount(
  value: number | string | undefined,
  units: readonly string[],
  base: string,
  unset = base,
): [string, string] {
  if (value === undefined) return ['', unset];
  if (typeof value === 'number') return [String(value), base];
  const m = AMOUNT.exec(value);
  if (!m) return [value, base];
  const unit = m[2].toLowerCase();
  return [m[1], units.includes(unit) ? unit : base];
}

function UnitField(p: FieldProps<number | string> & { units: readonly string[]; base: string; unset: string }) {
  const id = useId();
  const [amount, unit] = splitAmount(p.value, p.units, p.base, p.unset);
  const emit = (a: string, u: string) => p.onChange(a.trim() === '' ? undefined : `${a.trim()}${u}`);
  return (
    <Field label={p.label} hint={p.hint} error={p.error} htmlFor={id}>
      <div className="unit-input">
        <input
          id={id}
          className="input input--num"
          type="text"
          inputMode="decimal"
          value={amount}
          placeholder={p.placeholder}
          disabled={p.disabled}
          data-testid={p.testId}
          onChange={(e) => emit(e.target.value, unit)}
        />
        <select
          className="input select unit-input__unit"
          value={unit}
          disabled={p.disabled}
          data-testid={p.testId ? `${p.testId}-unit` : undefined}
          aria-label={`${p.label} unit`}
          onChange={(e) => emit(amount || '1', e.target.value)}
        >
          {p.units.map((u) => (
            <option key={u} value={u}>
              {u}
            </option>
          ))}
        </select>
      </div>
    </Field>
  );
}

export function DurationField(p: FieldProps<number | string>) {
  return <UnitField {...p} units={DURATION_UNITS} base="ms" unset="s" />;
}

export function SizeField(p: FieldProps<number | string>) {
  return <UnitField {...p} units={SIZE_UNITS} base="b" unset="mb" />;
}
