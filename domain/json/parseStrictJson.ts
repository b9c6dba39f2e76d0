import { formatJsonPath, type JsonPathStep } from './jsonPath';
import { StrictJsonError } from './strictJsonError';

/** Deeper than any export needs; deep enough to refuse a text built to exhaust a reader. */
export const MAX_JSON_DEPTH = 256;

/**
 * How much one text may hold. An export of real games spends about 60 bytes per array or
 * object and 20 per value, so a 50 MB export holds some 900,000 and 2.6 million: these
 * leave room for that, and refuse a text of `{}` or `0` repeated, which would cost
 * gigabytes and minutes to build, before it does.
 */
export const MAX_JSON_CONTAINERS = 2_000_000;
export const MAX_JSON_VALUES = 8_000_000;

export interface JsonLimits {
  maxDepth: number;
  /** Arrays and objects, all together. */
  maxContainers: number;
  /** Values of every kind, arrays and objects included. */
  maxValues: number;
}

export const JSON_LIMITS: JsonLimits = { maxDepth: MAX_JSON_DEPTH, maxContainers: MAX_JSON_CONTAINERS, maxValues: MAX_JSON_VALUES };

/**
 * RFC 8259 JSON, read strictly, for files nobody vouches for:
 * - a key twice in one object is refused (readers disagree on which one counts);
 * - a lone surrogate, escaped or raw, is refused (it has no UTF-8 form to hash);
 * - nesting deeper than `maxDepth` is refused, and the reader never recurses,
 *   so no text can overflow the stack;
 * - more arrays and objects, or values, than the limits allow are refused as they are
 *   read, so an absurd text costs little memory or time;
 * - objects have no prototype: a key `__proto__` is an ordinary member.
 * Errors are StrictJsonError, with the position of the problem.
 */
export function parseStrictJson(text: string, limits: number | Partial<JsonLimits> = {}): unknown {
  const given = typeof limits === 'number' ? { maxDepth: limits } : limits;
  return new StrictJsonReader(text, { ...JSON_LIMITS, ...given }).read();
}

type Frame = { kind: 'array'; value: unknown[] } | { kind: 'object'; value: Record<string, unknown>; key: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class StrictJsonReader {
  private pos = 0;
  private readonly stack: Frame[] = [];
  private containers = 0;
  private values = 0;

  constructor(
    private readonly text: string,
    private readonly limits: JsonLimits,
  ) {}

  read(): unknown {
    const text = this.text;
    this.skipWhitespace();
    for (;;) {
      let value: unknown;
      const c = text.charCodeAt(this.pos);
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        const frame: Frame = c === OPEN_BRACE ? { kind: 'object', value: Object.create(null), key: '' } : { kind: 'array', value: [] };
        if (this.stack.length >= this.limits.maxDepth) throw this.error(`arrays and objects nested deeper than ${this.limits.maxDepth} levels`, []);
        this.containers += 1;
        if (this.containers > this.limits.maxContainers) throw this.error(`more than ${this.limits.maxContainers} arrays and objects`, []);
        this.stack.push(frame);
        this.pos += 1;
        this.skipWhitespace();
        if (text.charCodeAt(this.pos) !== (c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)) {
          if (frame.kind === 'object') this.readKey(frame);
          continue;
        }
        this.pos += 1;
        this.stack.pop();
        value = frame.value;
      } else {
        value = this.readScalar();
      }
      // A value is complete: hand it to its container, and close every container that ends here.
      for (;;) {
        this.values += 1;
        if (this.values > this.limits.maxValues) throw this.error(`more than ${this.limits.maxValues} values`, []);
        const frame = this.stack.at(-1);
        if (!frame) {
          this.skipWhitespace();
          if (this.pos < text.length) throw this.error('unexpected text after the JSON value');
          return value;
        }
        if (frame.kind === 'array') frame.value.push(value);
        else frame.value[frame.key] = value;
        this.skipWhitespace();
        const next = text.charCodeAt(this.pos);
        if (next === COMMA) {
          this.pos += 1;
          this.skipWhitespace();
          if (frame.kind === 'object') this.readKey(frame);
          break;
        }
        if (next === (frame.kind === 'array' ? CLOSE_BRACKET : CLOSE_BRACE)) {
          this.pos += 1;
          this.stack.pop();
          value = frame.value;
          continue;
        }
        if (this.pos >= text.length) throw this.error('the text ends inside an array or object (is it truncated?)', this.containerPath());
        throw this.error(frame.kind === 'array' ? "expected ',' or ']'" : "expected ',' or '}'", this.containerPath());
      }
    }
  }

  private readKey(frame: Extract<Frame, { kind: 'object' }>): void {
    const at = this.pos;
    if (this.text.charCodeAt(at) !== QUOTE) throw this.error('expected a key in double quotes', this.containerPath());
    const key = this.readString();
    if (Object.hasOwn(frame.value, key)) {
      this.pos = at;
      throw this.error(`duplicate key ${JSON.stringify(key)}`, this.containerPath());
    }
    frame.key = key;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) !== COLON) throw this.error(`expected ':' after the key ${JSON.stringify(key)}`, this.containerPath());
    this.pos += 1;
    this.skipWhitespace();
  }

  private readScalar(): unknown {
    const text = this.text;
    const c = text.charCodeAt(this.pos);
    if (c === QUOTE) return this.readString();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.pos;
    const number = NUMBER.exec(text);
    if (number) {
      const value = Number(number[0]);
      if (!Number.isFinite(value)) throw this.error('a number too large for a double');
      this.pos += number[0].length;
      return value;
    }
    if (this.pos >= text.length) throw this.error('the text ends where a value should be (is it truncated?)');
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) throw this.error('a malformed number');
    throw this.error(`unexpected ${JSON.stringify(text[this.pos])}`);
  }

  private readString(): string {
    const text = this.text;
    const start = this.pos;
    let pos = start + 1;
    let chunkStart = pos;
    let out = '';
    for (;;) {
      if (pos >= text.length) {
        this.pos = pos;
        throw this.error('the text ends inside a string (is it truncated?)');
      }
      const c = text.charCodeAt(pos);
      if (c === QUOTE) break;
      if (c < 0x20) {
        this.pos = pos;
        throw this.error('a control character in a string must be escaped');
      }
      if (c !== BACKSLASH) {
        pos += 1;
        continue;
      }
      out += text.slice(chunkStart, pos);
      const escape = text[pos + 1];
      if (escape === 'u') {
        const hex = text.slice(pos + 2, pos + 6);
        if (!HEX4.test(hex)) {
          this.pos = pos;
          throw this.error('\\u must be followed by four hex digits');
        }
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else if (escape !== undefined && Object.hasOwn(SIMPLE_ESCAPES, escape)) {
        out += SIMPLE_ESCAPES[escape];
        pos += 2;
      } else {
        this.pos = pos;
        throw this.error(escape === undefined ? 'the text ends inside a string (is it truncated?)' : `unknown escape \\${escape}`);
      }
      chunkStart = pos;
    }
    out += text.slice(chunkStart, pos);
    if (!out.isWellFormed()) {
      this.pos = start;
      throw this.error('a string with a lone surrogate (half of a UTF-16 pair), which has no UTF-8 form');
    }
    this.pos = pos + 1;
    return out;
  }

  private skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      pos += 1;
    }
    this.pos = pos;
  }

  /** Where the reader is: the key or index of the member being read in every open container. */
  private path(): JsonPathStep[] {
    return this.stack.map((frame) => (frame.kind === 'array' ? frame.value.length : frame.key));
  }

  /** The innermost open container itself. */
  private containerPath(): JsonPathStep[] {
    return this.path().slice(0, -1);
  }

  private error(problem: string, steps = this.path()): StrictJsonError {
    const where = steps.length ? ` in ${formatJsonPath(steps)}` : '';
    return new StrictJsonError(`${problem}${where}`, this.pos, this.text);
  }
}
