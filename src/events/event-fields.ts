/**
 * A plain field of events: one column of `events`, written as a request sends it (once its DTO has
 * checked it), answered as stored, and replaced by `whenProtected` in the answer of a
 * password-protected event the requester may not open. Declared on the entity's property with
 * `@EventField(name)`; the write rules, the answer and the protection take every declared field
 * from here, so a new one needs no code of its own (docs/EXTENDING.md, "A field of events").
 */
export interface PlainEventField {
  /** The field's name in requests and answers. */
  name: string;
  /** The entity's property. */
  property: string;
  whenProtected: unknown;
}

const FIELDS: PlainEventField[] = [];

/** Declares the entity property a plain field of events named `name` (see {@link PlainEventField}). */
export function EventField(name: string, options: { whenProtected?: unknown } = {}): PropertyDecorator {
  return (_target, property) => {
    FIELDS.push({ name, property: String(property), whenProtected: options.whenProtected ?? null });
  };
}

/** The declared plain fields, in the order of the entity's properties. */
export function plainEventFields(): readonly PlainEventField[] {
  return FIELDS;
}

/** An event row (the entity imports this file, so it is not named here). */
type Row = Record<string, unknown>;

/** The fields of an answer for the plain fields of `event`, in declaration order. */
export function plainFieldsOf(event: object): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const { name, property } of FIELDS) fields[name] = (event as Row)[property];
  return fields;
}

/** Writes the plain fields a request sent onto `event`; fields it left out keep their values. */
export function writePlainFields(event: object, input: object): void {
  const sent = input as Record<string, unknown>;
  for (const { name, property } of FIELDS) if (sent[name] !== undefined) (event as Row)[property] = sent[name];
}

/** What a protected event's answer shows for each plain field. */
export function plainFieldRedactions(): Record<string, unknown> {
  return Object.fromEntries(FIELDS.map(({ name, whenProtected }) => [name, whenProtected]));
}
