// A form from a JSON schema (GET /rulesets): strings, enums, integers, numbers, booleans,
// objects, arrays of those and arrays of objects; anything else is a JSON text box. A field
// is labelled in words from its schema's description, with its API name beside it; what the
// schema leaves optional may be left empty; a list of objects also takes a CSV or JSON paste.
import { el, uid, type Child } from './dom';
import { capitalized, humanize, labelOf, type Label } from './fieldLabel';
import type { JsonSchema } from './jsonSchema';
import { readPastedRows } from './pastedRows';

export type { JsonSchema } from './jsonSchema';

export interface FormPart {
  element: HTMLElement;
  /** The value entered; undefined when left empty. Throws Error with words for a person. */
  read(): unknown;
}

const typeOf = (schema: JsonSchema) => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type);

const callOf = (label: Label) => (label.name ? `\`${label.name}\`` : label.text);

/** A labelled control: the words, then the API name in code, then the hint. */
function labelled(label: Label, control: HTMLElement, suffix = ''): HTMLElement {
  control.id ||= uid('f');
  const hint = label.hint ? el('small', { id: `${control.id}-hint`, class: 'hint' }, label.hint) : null;
  if (hint) control.setAttribute('aria-describedby', hint.id);
  return el('div', { class: 'field' }, el('label', { for: control.id }, ...labelText(label, suffix)), control, hint);
}

function labelText(label: Label, suffix = ''): Child[] {
  return [label.text + suffix, label.name ? ' ' : null, label.name ? el('code', { class: 'field-name' }, label.name) : null];
}

/** The branch of an anyOf/oneOf a form can show, if any. */
function simpleBranch(schema: JsonSchema): JsonSchema | undefined {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches) return schema;
  // A choice of values (`1` or `2`): one list of all of them.
  if (branches.every((b) => b.const !== undefined || b.enum)) {
    return { ...schema, anyOf: undefined, oneOf: undefined, enum: branches.flatMap((b) => b.enum ?? [b.const]) };
  }
  const pick = branches.find((b) => ['string', 'integer', 'number', 'boolean'].includes(typeOf(b) ?? '') || b.enum);
  return pick ? { ...pick, description: schema.description ?? pick.description, default: schema.default ?? pick.default } : undefined;
}

/**
 * The form of a schema. `required`: whether the value must be given; an optional object's own
 * required fields are required only once one of its fields is filled in.
 */
export function schemaForm(schema: JsonSchema, label: Label | string, required = true): FormPart {
  const l = typeof label === 'string' ? { text: label } : label;
  if (schema['x-form'] === 'json' || schema.items?.['x-form'] === 'json') return jsonBox(schema, l, 10);
  const simple = simpleBranch(schema);
  if (!simple) return jsonBox(schema, l);
  schema = simple;
  const type = typeOf(schema);
  if (schema.enum || schema.const !== undefined) return enumSelect(schema, l, required);
  if (type === 'object' || schema.properties) return objectForm(schema, l, required);
  if (type === 'string') return textInput(schema, l, required);
  if (type === 'integer' || type === 'number') return numberInput(schema, l, required, type === 'integer');
  if (type === 'boolean') return checkbox(schema, l, required);
  if (type === 'array' && schema.items) {
    const itemType = typeOf(simpleBranch(schema.items) ?? {});
    if (itemType === 'object') return objectList(schema, l, required);
    if (itemType === 'string' || itemType === 'integer' || itemType === 'number') return lineList(schema, l, itemType, required);
  }
  return jsonBox(schema, l);
}

function objectForm(schema: JsonSchema, label: Label, required: boolean): FormPart {
  const names = Object.keys(schema.properties ?? {});
  const parts = names.map((name) => {
    const property = schema.properties![name];
    const own = schema.required?.includes(name) ?? false;
    return { name, own, part: schemaForm(property, labelOf(name, property.description), required && own) };
  });
  const element = el('fieldset', { class: 'schema-object' }, el('legend', {}, ...labelText(label)), label.hint ? el('p', { class: 'hint' }, label.hint) : null, ...parts.map((p) => p.part.element));
  if (!names.length) element.append(el('p', { class: 'hint' }, 'Nothing to fill in.'));
  else if (!required) element.append(el('p', { class: 'hint' }, 'Optional: leave every field empty to leave it out.'));
  return {
    element,
    read() {
      const value: Record<string, unknown> = {};
      for (const { name, part } of parts) {
        const v = part.read();
        if (v !== undefined) value[name] = v;
      }
      if (required) return value;
      if (Object.keys(value).length === 0) return undefined;
      const missing = parts.filter((p) => p.own && value[p.name] === undefined).map((p) => `\`${p.name}\``);
      if (missing.length) throw new Error(`${callOf(label)}: fill in ${missing.join(' and ')} too, or leave it all empty.`);
      return value;
    },
  };
}

function textInput(schema: JsonSchema, label: Label, required: boolean): FormPart {
  const input = el('input', { type: 'text', value: typeof schema.default === 'string' ? schema.default : undefined, maxlength: schema.maxLength, required });
  return {
    element: labelled(label, input),
    read: () => (input.value === '' ? undefined : input.value),
  };
}

function numberInput(schema: JsonSchema, label: Label, required: boolean, integer: boolean): FormPart {
  const safe = (n: number | undefined) => (n !== undefined && Math.abs(n) < 1e15 ? n : undefined);
  const input = el('input', { type: 'number', step: integer ? 1 : 'any', min: safe(schema.minimum), max: safe(schema.maximum), value: typeof schema.default === 'number' ? schema.default : undefined, required });
  return {
    element: labelled(label, input),
    read() {
      if (input.value.trim() === '') return undefined;
      const n = Number(input.value);
      if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) throw new Error(`${callOf(label)}: ${integer ? 'a whole number' : 'a number'}, please.`);
      return n;
    },
  };
}

function checkbox(schema: JsonSchema, label: Label, required: boolean): FormPart {
  const input = el('input', { type: 'checkbox', checked: schema.default === true });
  input.id = uid('f');
  const element = el('div', { class: 'field checkbox' }, input, el('label', { for: input.id }, ...labelText(label)), label.hint ? el('small', { class: 'hint' }, label.hint) : null);
  // Unticked and optional: left out, so the rules' default applies (and an optional object stays empty).
  return { element, read: () => (input.checked || required || schema.default === true ? input.checked : undefined) };
}

function enumSelect(schema: JsonSchema, label: Label, required: boolean): FormPart {
  const values = schema.enum ?? [schema.const];
  const select = el('select', {}, required ? null : el('option', { value: '' }, '—'), ...values.map((v, i) => el('option', { value: String(i) }, String(v))));
  const dflt = values.findIndex((v) => v === schema.default);
  if (dflt >= 0) select.value = String(dflt);
  return {
    element: labelled(label, select),
    read: () => (select.value === '' ? undefined : values[Number(select.value)]),
  };
}

function lineList(schema: JsonSchema, label: Label, itemType: string, required: boolean): FormPart {
  const area = el('textarea', { rows: 3 });
  if (Array.isArray(schema.default)) area.value = schema.default.join('\n');
  return {
    element: labelled(label, area, ' (one per line)'),
    read() {
      const lines = area.value.split('\n').map((l) => l.trim()).filter(Boolean);
      if (!lines.length) return required ? [] : undefined;
      if (itemType === 'string') return lines;
      return lines.map((l) => {
        const n = Number(l);
        if (!Number.isFinite(n)) throw new Error(`${callOf(label)}: "${l}" is not a number.`);
        return n;
      });
    },
  };
}

const PASTE_FROM_FIELDS = 4;

function objectList(schema: JsonSchema, label: Label, required: boolean): FormPart {
  const items: { part: FormPart; row: HTMLElement }[] = [];
  const list = el('div', { class: 'schema-list' });
  const short = label.name ? humanize(label.name) : label.text;
  let made = 0;
  const add = () => {
    const name = `${short} ${++made}`;
    const part = schemaForm(schema.items!, { text: capitalized(name) });
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
  const addButton = el('button', { type: 'button', class: 'small', onclick: () => add().row.querySelector<HTMLElement>('input, select, textarea')?.focus() }, `Add ${short} item`);
  // A paste for lists of rows with several fields (an order of battle), not for a list of two-field modifiers.
  const paste = Object.keys(schema.items!.properties ?? {}).length >= PASTE_FROM_FIELDS ? pasteBox(schema.items!, short) : undefined;
  return {
    element: el('fieldset', { class: 'schema-array' }, el('legend', {}, ...labelText(label)), label.hint ? el('p', { class: 'hint' }, label.hint) : null, list, addButton, paste?.element),
    read() {
      const fromForms = items.map((i) => i.part.read());
      const pasted = paste?.read();
      if (!required && !fromForms.length && pasted === undefined) return undefined;
      return [...fromForms, ...(pasted ?? [])];
    },
  };
}

/** The rows of a list pasted as CSV or JSON, checked against the item schema; the same check as they are sent. */
function pasteBox(item: JsonSchema, short: string): { element: HTMLElement; read(): unknown[] | undefined } {
  const fields = Object.keys(item.properties ?? {});
  const area = el('textarea', { rows: 6, spellcheck: 'false', class: 'json paste' });
  // Not a role=status: the command box's own status line stays the one status of the box.
  const result = el('p', { class: 'paste-result', 'aria-live': 'polite' });
  const check = () => {
    const read = readPastedRows(area.value, item);
    if (read.problems.length) throw new Error(`${capitalized(short)} pasted: ${read.problems.join('; ')}.`);
    return read.rows.length ? read.rows : undefined;
  };
  const button = el('button', { type: 'button', class: 'small', onclick: () => {
    try {
      const rows = check();
      result.textContent = rows ? `${rows.length} ${rows.length === 1 ? 'row' : 'rows'} read; each fits the rules' schema.` : 'Nothing pasted yet.';
      result.dataset.kind = 'ok';
    } catch (error) {
      result.textContent = (error as Error).message;
      result.dataset.kind = 'error';
    }
  } }, `Check the pasted ${short}`);
  area.id = uid('f');
  const hint = el('small', { id: `${area.id}-hint`, class: 'hint' },
    `CSV: a first line naming the fields (${fields.join(', ')}), then one line per item; or a JSON list of objects. Empty cells are left out. Row 1 is the first item after the header line.`);
  area.setAttribute('aria-describedby', hint.id);
  const element = el('div', { class: 'field paste' }, el('label', { for: area.id }, `Paste ${short} (CSV or JSON)`), area, hint, button, result);
  return { element, read: check };
}

function jsonBox(schema: JsonSchema, label: Label, rows = 4): FormPart {
  const area = el('textarea', { rows, spellcheck: 'false', class: 'json' });
  if (schema.default !== undefined) area.value = JSON.stringify(schema.default);
  return {
    element: labelled(label, area, ' (JSON)'),
    read() {
      if (area.value.trim() === '') return undefined;
      try {
        return JSON.parse(area.value);
      } catch {
        throw new Error(`${callOf(label)}: this is not valid JSON.`);
      }
    },
  };
}
