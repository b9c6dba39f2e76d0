import { config, globalRegistry, type z } from 'zod';
import type { FieldIssue } from './errors';

/**
 * zod's issues in a player's words. Each phrase follows the field it is about, as in
 * "`units` needs at least 1 item" or "`side` must be one of allied, axis". A message a schema
 * wrote itself (a check's own message, a superRefine's custom issue) is already words and is
 * kept; only zod's own schema text ("Too small: expected array to have >=1 items") is reworded.
 */

/** What an issue carries, finalized (`error.issues`) or raw (an error map's argument, with `input` and the schema). */
type AnyIssue = z.core.$ZodIssue | z.core.$ZodRawIssue;
type Bag = { minimum?: number | bigint; maximum?: number | bigint; exclusiveMinimum?: number; exclusiveMaximum?: number; format?: string };

const MAX_LISTED = 20;
const MAX_SHOWN_CHARS = 64;

const TYPE_NOUNS: ReadonlyMap<string, string> = new Map([
  ['string', 'text'],
  ['number', 'a number'],
  ['int', 'a whole number'],
  ['bigint', 'a whole number'],
  ['boolean', 'true or false'],
  ['object', 'an object'],
  ['record', 'an object'],
  ['array', 'a list'],
  ['tuple', 'a list'],
  ['set', 'a list'],
  ['map', 'a map'],
  ['date', 'a date'],
  ['null', 'null'],
  ['nan', 'not a number (NaN)'],
]);

const FORMAT_NOUNS: ReadonlyMap<string, string> = new Map([
  ['email', 'an e-mail address'],
  ['url', 'a URL'],
  ['uuid', 'a UUID'],
  ['guid', 'a GUID'],
  ['datetime', 'a date and time such as 2026-11-27T05:20:00Z'],
  ['date', 'a date such as 2026-11-27'],
  ['time', 'a time such as 05:20:00'],
  ['duration', 'an ISO 8601 duration such as PT5M'],
  ['base64', 'base64 text'],
  ['base64url', 'base64url text'],
  ['ipv4', 'an IPv4 address'],
  ['ipv6', 'an IPv6 address'],
  ['jwt', 'a JWT'],
]);

// The locale zod is configured with (English unless changed). Only named values of zod here, never z.core or z.locales
// at run time: those namespaces would bundle every language and the JSON Schema generator into every function.
const zodDefault = (issue: z.core.$ZodRawIssue) => config().localeError?.(issue);
const messageText = (message: string | { message: string } | null | undefined) => (typeof message === 'string' ? message : (message?.message ?? undefined));

/** Shown in a message: a value a client sent, quoted and cut short. */
export function shown(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);
  return text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}…` : text;
}

/** A list in words: "a, b, c", cut after MAX_LISTED with how many more. */
export function listed(values: readonly unknown[]): string {
  const words = values.slice(0, MAX_LISTED).map((v) => (typeof v === 'string' ? v : shown(v)));
  return values.length > MAX_LISTED ? `${words.join(', ')} and ${values.length - MAX_LISTED} more` : words.join(', ');
}

function typeNoun(type: string): string {
  return TYPE_NOUNS.get(type) ?? type;
}

/** A value's type as zod's messages name it. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isNaN(value)) return 'nan';
  return typeof value;
}

/** The type a value had, as zod names it: from the raw issue's input, or from zod's own message ("…, received boolean"). */
function receivedType(issue: AnyIssue): string | undefined {
  if ('input' in issue) return typeOf(issue.input);
  return issue.message?.match(/, received (\w+)$/)?.[1];
}

type CheckDef = { check?: string; value?: number | bigint; inclusive?: boolean; minimum?: number; maximum?: number; format?: string };

/**
 * The bounds of the schema an issue is about, from its checks: zod reports one bound per
 * issue, while "from 1 to 99" needs both. Only raw issues (an error map's) carry the schema.
 */
function bagOf(issue: AnyIssue): Bag {
  const schema = 'schema' in issue ? (issue.schema as { _zod?: { def?: CheckDef & { checks?: { _zod: { def: CheckDef } }[] } } } | undefined) : undefined;
  const def = schema?._zod?.def;
  if (!def) return {};
  const bag: Bag = {};
  for (const check of [def, ...(def.checks ?? []).map((c) => c._zod.def)]) {
    switch (check.check) {
      case 'greater_than':
        if (check.inclusive) bag.minimum = check.value;
        else bag.exclusiveMinimum = Number(check.value);
        break;
      case 'less_than':
        if (check.inclusive) bag.maximum = check.value;
        else bag.exclusiveMaximum = Number(check.value);
        break;
      case 'number_format':
      case 'bigint_format':
        bag.format = check.format;
        break;
      case 'min_length':
      case 'min_size':
        bag.minimum = check.minimum;
        break;
      case 'max_length':
      case 'max_size':
        bag.maximum = check.maximum;
        break;
    }
  }
  return bag;
}

/** A bound worth naming: not the ±2^53 of a safe integer, nor infinity. */
function bound(value: number | bigint | undefined): number | bigint | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && (!Number.isFinite(value) || Math.abs(value) >= Number.MAX_SAFE_INTEGER)) return undefined;
  return value;
}

const plural = (count: number | bigint, one: string, many: string) => `${count} ${Number(count) === 1 ? one : many}`;

const SIZED: ReadonlyMap<string, [string, string]> = new Map([
  ['string', ['character', 'characters']],
  ['array', ['item', 'items']],
  ['set', ['item', 'items']],
  ['map', ['entry', 'entries']],
  ['file', ['byte', 'bytes']],
]);

function sizeWords(issue: Extract<AnyIssue, { code: 'too_small' | 'too_big' }>, unit: [string, string]): string {
  const bag = bagOf(issue);
  const lo = bound(bag.minimum);
  const hi = bound(bag.maximum);
  if (issue.exact) return `needs exactly ${plural(issue.code === 'too_small' ? issue.minimum : issue.maximum, ...unit)}`;
  if (lo !== undefined && hi !== undefined && lo !== hi) return `needs ${lo} to ${plural(hi, ...unit)}`;
  if (issue.code === 'too_small') {
    if (Number(issue.minimum) === 1 && issue.origin === 'string') return 'must not be empty';
    return `needs at least ${plural(issue.minimum, ...unit)}`;
  }
  return `may have at most ${plural(issue.maximum, ...unit)}`;
}

function numberWords(issue: Extract<AnyIssue, { code: 'too_small' | 'too_big' }>): string {
  const bag = bagOf(issue);
  const whole = issue.origin === 'bigint' || /int/.test(bag.format ?? '');
  const kind = whole ? 'a whole number' : 'a number';
  const lo = bound(bag.minimum);
  const hi = bound(bag.maximum);
  if (lo !== undefined && hi !== undefined && bag.exclusiveMinimum === undefined && bag.exclusiveMaximum === undefined) {
    return `must be ${kind} from ${lo} to ${hi}`;
  }
  const of = whole ? `${kind} of ` : '';
  if (issue.code === 'too_small') return `must be ${of}${issue.inclusive ? 'at least' : 'more than'} ${issue.minimum}`;
  return `must be ${of}${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
}

function boundWords(issue: Extract<AnyIssue, { code: 'too_small' | 'too_big' }>): string {
  const unit = SIZED.get(issue.origin ?? '');
  if (unit) return sizeWords(issue, unit);
  if (issue.origin === 'date') {
    const at = new Date(Number(issue.code === 'too_small' ? issue.minimum : issue.maximum)).toISOString();
    return issue.code === 'too_small' ? `must be on or after ${at}` : `must be on or before ${at}`;
  }
  return numberWords(issue);
}

function typeWords(issue: Extract<AnyIssue, { code: 'invalid_type' }>): string {
  const received = receivedType(issue);
  const whole = issue.expected === 'number' && /int/.test(bagOf(issue).format ?? '');
  const wanted = whole ? 'a whole number' : typeNoun(issue.expected);
  if (received === 'undefined' || received === undefined) return issue.expected === 'never' ? 'must be left out' : `is required: ${wanted}`;
  if (issue.expected === 'never') return 'must be left out';
  const got = typeNoun(received);
  // z.int() given 2.5 is "expected int, received number": saying "not a number" would be wrong.
  return got === wanted || ((whole || issue.expected === 'int') && received === 'number') ? `must be ${wanted}` : `must be ${wanted}, not ${got}`;
}

function formatWords(issue: Extract<AnyIssue, { code: 'invalid_format' }>): string {
  switch (issue.format) {
    case 'starts_with':
      return `must start with ${shown((issue as { prefix?: string }).prefix)}`;
    case 'ends_with':
      return `must end with ${shown((issue as { suffix?: string }).suffix)}`;
    case 'includes':
      return `must include ${shown((issue as { includes?: string }).includes)}`;
    case 'regex': {
      const schema = 'schema' in issue ? issue.schema : undefined;
      const description = schema ? globalRegistry.get(schema as z.ZodType)?.description : undefined;
      return description ? `is not in the expected form: ${description}` : `is not in the expected form (the pattern ${issue.pattern})`;
    }
    default:
      return `must be ${FORMAT_NOUNS.get(issue.format) ?? `a valid ${issue.format}`}`;
  }
}

function unionWords(issue: Extract<AnyIssue, { code: 'invalid_union' }>): string {
  const discriminated = issue as { options?: unknown[]; inclusive?: boolean };
  if (Array.isArray(discriminated.options) && discriminated.options.length) return `must be one of ${listed(discriminated.options)}`;
  if (discriminated.inclusive === false) return 'matches more than one of the accepted forms: it must match exactly one';
  const forms = issue.errors.map((branch) => (branch.length === 1 && branch[0].path.length === 0 ? rootForm(branch[0]) : undefined));
  if (forms.length && forms.every((form) => form !== undefined)) return `must be ${[...new Set(forms)].join(' or ')}`;
  return 'matches none of the accepted forms';
}

/** What one branch of a union wanted, when it refused the value itself. */
function rootForm(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code === 'invalid_type') return typeNoun(issue.expected);
  if (issue.code === 'invalid_value') return issue.values.map((v) => shown(v)).join(' or ');
  return undefined;
}

function keyWords(issue: Extract<AnyIssue, { code: 'unrecognized_keys' }>): string {
  const keys = issue.keys.map((key) => shown(key));
  const which = keys.length === 1 ? `the field ${keys[0]}` : `the fields ${listed(keys)}`;
  const shape = 'inst' in issue ? (issue.inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape : undefined;
  const fields = shape ? Object.keys(shape) : [];
  return `does not take ${which}${fields.length ? `; its fields are ${listed(fields)}` : ''}`;
}

/** The phrase for one issue, following its field: "needs at least 1 item", "must be one of allied, axis". */
export function issueWords(issue: AnyIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return typeWords(issue);
    case 'too_small':
    case 'too_big':
      return boundWords(issue);
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${listed(issue.values)}` : `must be one of ${listed(issue.values)}`;
    case 'unrecognized_keys':
      return keyWords(issue);
    case 'invalid_union':
      return unionWords(issue);
    case 'invalid_format':
      return formatWords(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_key':
      return `is not an accepted key: it ${issue.issues[0] ? wordsOf(issue.issues[0]) : 'is refused'}`;
    case 'invalid_element':
      return `holds an entry that is not accepted${issue.issues[0] ? `: it ${wordsOf(issue.issues[0])}` : ''}`;
    default:
      return 'is not accepted here';
  }
}

/** zod's own text for this issue (an English sentence about schemas), as opposed to words a schema gave it. */
function isZodText(issue: z.core.$ZodIssue): boolean {
  const untyped = (text: string | undefined) => text?.replace(/, received \w+$/, '');
  const own = untyped(messageText(zodDefault({ ...issue, input: undefined } as z.core.$ZodRawIssue)));
  return issue.message === 'Invalid input' || untyped(issue.message) === own;
}

/** A finalized issue's words: its own message when a schema wrote one, else ours. */
function wordsOf(issue: z.core.$ZodIssue): string {
  return isZodText(issue) ? issueWords(issue) : issue.message;
}

/** Parse options that word every issue a schema left to zod: `schema.safeParse(value, IN_WORDS)`. */
export const IN_WORDS = { error: (issue: z.core.$ZodRawIssue) => issueWords(issue) } as const;

/** The valid values an issue names, for `valid` beside its words (an enum, a literal, a discriminator). */
function validValues(issue: z.core.$ZodIssue): unknown[] | undefined {
  if (issue.code === 'invalid_value' && issue.values.length > 1) return [...issue.values];
  const options = (issue as { options?: unknown[] }).options;
  return issue.code === 'invalid_union' && Array.isArray(options) && options.length ? [...options] : undefined;
}

function fieldName(prefix: string, path: readonly PropertyKey[]): string {
  let field = prefix;
  for (const key of path) {
    field += typeof key === 'number' ? `[${key}]` : field ? `.${String(key)}` : String(key);
  }
  return field || '(body)';
}

/**
 * Turns zod's issues into `{ field, message, valid? }`, fields written as `payload.attackers[0].hex`,
 * each message in a player's words. A union none of whose forms fits, where one form came
 * closer than refusing the value itself, is explained by that form's own issues.
 */
export function fieldIssues(error: z.ZodError | { issues: readonly z.core.$ZodIssue[] }, prefix = ''): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const field = fieldName(prefix, issue.path);
    if (issue.code === 'invalid_union' && (isZodText(issue) || issue.message === issueWords(issue))) {
      const closest = closestBranch(issue);
      if (closest) return fieldIssues({ issues: closest }, field === '(body)' ? '' : field);
    }
    const valid = validValues(issue);
    return [{ field, message: wordsOf(issue), ...(valid ? { valid } : {}) }];
  });
}

/** The branch of a union that got past the value's own type, with the fewest issues; none when every branch refused the value itself. */
function closestBranch(issue: Extract<z.core.$ZodIssue, { code: 'invalid_union' }>): z.core.$ZodIssue[] | undefined {
  const deeper = issue.errors.filter((branch) => branch.length && !(branch.length === 1 && branch[0].path.length === 0 && rootForm(branch[0]) !== undefined));
  if (!deeper.length) return undefined;
  return deeper.reduce((best, branch) => (branch.length < best.length ? branch : best));
}
