// A form from a JSON schema (GET /rulesets): strings, enums, integers, numbers, booleans,
// objects, arrays of those and arrays of objects; anything else is a JSON text box.
import { el, field, uid } from './dom';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minItems?: number;
  /** 'json': a document a person pastes whole (a combat table), shown as one JSON box. */
  'x-form'?: string;
}

export interface FormPart {
  element: HTMLElement;
  /** The value entered; undefined when left empty. Throws Error with words for a person. */
  read(): unknown;
}

const typeOf = (schema: JsonSchema) => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type);
const humanize = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]/g, ' ');

/** The branch of an anyOf/oneOf a form can show, if any. */
function simpleBranch(schema: JsonSchema): JsonSchema | undefined {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches) return schema;
  const pick = branches.find((b) => ['string', 'integer', 'number', 'boolean'].includes(typeOf(b) ?? '') || b.enum);
  return pick ? { ...pick, description: schema.description ?? pick.description, default: schema.default ?? pick.default } : undefined;
}

export function schemaForm(schema: JsonSchema, label: string, required = true): FormPart {
  if (schema['x-form'] === 'json' || schema.items?.['x-form'] === 'json') return jsonBox(schema, label, 10);
  const simple = simpleBranch(schema);
  if (!simple) return jsonBox(schema, label);
  schema = simple;
  const type = typeOf(schema);
  if (schema.enum || schema.const !== undefined) return enumSelect(schema, label, required);
  if (type === 'object' || schema.properties) return objectForm(schema, label);
  if (type === 'string') return textInput(schema, label, required);
  if (type === 'integer' || type === 'number') return numberInput(schema, label, required, type === 'integer');
  if (type === 'boolean') return checkbox(schema, label);
  if (type === 'array' && schema.items) {
    const itemType = typeOf(simpleBranch(schema.items) ?? {});
    if (itemType === 'object') return objectList(schema, label);
    if (itemType === 'string' || itemType === 'integer' || itemType === 'number') return lineList(schema, label, itemType, required);
  }
  return jsonBox(schema, label);
}

function objectForm(schema: JsonSchema, label: string): FormPart {
  const names = Object.keys(schema.properties ?? {});
  const parts = names.map((name) => [name, schemaForm(schema.properties![name], humanize(name), schema.required?.includes(name) ?? false)] as const);
  const element = el('fieldset', { class: 'schema-object' }, el('legend', {}, label), ...parts.map(([, p]) => p.element));
  if (!names.length) element.append(el('p', { class: 'hint' }, 'Nothing to fill in.'));
  return {
    element,
    read() {
      const value: Record<string, unknown> = {};
      for (const [name, part] of parts) {
        const v = part.read();
        if (v !== undefined) value[name] = v;
      }
      return value;
    },
  };
}

function textInput(schema: JsonSchema, label: string, required: boolean): FormPart {
  const input = el('input', { type: 'text', value: typeof schema.default === 'string' ? schema.default : undefined, maxlength: schema.maxLength, required });
  return {
    element: field(label, input, schema.description),
    read: () => (input.value === '' ? undefined : input.value),
  };
}

function numberInput(schema: JsonSchema, label: string, required: boolean, integer: boolean): FormPart {
  const safe = (n: number | undefined) => (n !== undefined && Math.abs(n) < 1e15 ? n : undefined);
  const input = el('input', { type: 'number', step: integer ? 1 : 'any', min: safe(schema.minimum), max: safe(schema.maximum), value: typeof schema.default === 'number' ? schema.default : undefined, required });
  return {
    element: field(label, input, schema.description),
    read() {
      if (input.value.trim() === '') return undefined;
      const n = Number(input.value);
      if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) throw new Error(`${label}: ${integer ? 'a whole number' : 'a number'}, please.`);
      return n;
    },
  };
}

function checkbox(schema: JsonSchema, label: string): FormPart {
  const input = el('input', { type: 'checkbox', checked: schema.default === true });
  input.id = uid('f');
  const element = el('div', { class: 'field checkbox' }, input, el('label', { for: input.id }, label), schema.description ? el('small', { class: 'hint' }, schema.description) : null);
  return { element, read: () => input.checked };
}

function enumSelect(schema: JsonSchema, label: string, required: boolean): FormPart {
  const values = schema.enum ?? [schema.const];
  const select = el('select', {}, required ? null : el('option', { value: '' }, '—'), ...values.map((v, i) => el('option', { value: String(i) }, String(v))));
  const dflt = values.findIndex((v) => v === schema.default);
  if (dflt >= 0) select.value = String(dflt);
  return {
    element: field(label, select, schema.description),
    read: () => (select.value === '' ? undefined : values[Number(select.value)]),
  };
}

function lineList(schema: JsonSchema, label: string, itemType: string, required: boolean): FormPart {
  const area = el('textarea', { rows: 3 });
  if (Array.isArray(schema.default)) area.value = schema.default.join('\n');
  return {
    element: field(`${label} (one per line)`, area, schema.description),
    read() {
      const lines = area.value.split('\n').map((l) => l.trim()).filter(Boolean);
      if (!lines.length) return required ? [] : undefined;
      if (itemType === 'string') return lines;
      return lines.map((l) => {
        const n = Number(l);
        if (!Number.isFinite(n)) throw new Error(`${label}: "${l}" is not a number.`);
        return n;
      });
    },
  };
}

function objectList(schema: JsonSchema, label: string): FormPart {
  const items: { part: FormPart; row: HTMLElement }[] = [];
  const list = el('div', { class: 'schema-list' });
  let made = 0;
  const add = () => {
    const name = `${label} ${++made}`;
    const part = schemaForm(schema.items!, name);
    const entry = { part, row: el('div', { class: 'schema-item' }) };
    const remove = el('button', { type: 'button', class: 'small', onclick: () => {
      items.splice(items.indexOf(entry), 1);
      entry.row.remove();
    } }, `Remove ${name}`);
    entry.row.append(part.element, remove);
    items.push(entry);
    list.append(entry.row);
    return entry;
  };
  for (let i = 0; i < (schema.minItems ?? 0); i++) add();
  const addButton = el('button', { type: 'button', class: 'small', onclick: () => add().row.querySelector<HTMLElement>('input, select, textarea')?.focus() }, `Add ${label} item`);
  return {
    element: el('fieldset', { class: 'schema-array' }, el('legend', {}, label), schema.description ? el('p', { class: 'hint' }, schema.description) : null, list, addButton),
    read: () => items.map((i) => i.part.read()),
  };
}

function jsonBox(schema: JsonSchema, label: string, rows = 4): FormPart {
  const area = el('textarea', { rows, spellcheck: 'false', class: 'json' });
  if (schema.default !== undefined) area.value = JSON.stringify(schema.default);
  return {
    element: field(`${label} (JSON)`, area, schema.description),
    read() {
      if (area.value.trim() === '') return undefined;
      try {
        return JSON.parse(area.value);
      } catch {
        throw new Error(`${label}: this is not valid JSON.`);
      }
    },
  };
}
