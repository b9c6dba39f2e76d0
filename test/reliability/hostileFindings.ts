import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Failure } from './hostileChecks';
import { printable, type AttackClass } from './hostileValues';

/** One hostile request: where it went, what it tried. */
export interface Meta {
  where: 'command' | 'evaluate' | 'create' | 'path';
  ruleset: string;
  /** The command, procedure or route. */
  subject: string;
  slot: string;
  cls: AttackClass;
  label: string;
}

export interface Sent {
  method: string;
  path: string;
  accept?: string;
  body?: string;
}

export interface ProblemGroup {
  check: string;
  context: string;
  count: number;
  statuses: number[];
  examples: { label: string; status: number; detail: string; request: string; before: string[] }[];
}

export const contextOf = (m: Meta) => `${m.where} ${m.ruleset} ${m.subject} · ${m.slot} · ${m.cls}`;

/** What the hostile-input run sent and saw: counts for the figures, problems grouped for the report. */
export class Findings {
  cases = 0;
  readonly byClass = new Map<AttackClass, Map<number, number>>();
  readonly statuses = new Map<number, number>();
  /** `command <ruleset> <type>` and `evaluate <ruleset> <procedure>` that got hostile cases. */
  readonly covered = new Set<string>();
  readonly games = { fuzzed: 0, verified: 0, continued: 0, sealed: 0 };
  readonly created = { accepted: 0, verified: 0, continued: 0, sealed: 0 };
  private readonly groups = new Map<string, ProblemGroup>();
  private noted = 0;

  countCase(meta: Meta, status: number): void {
    this.cases += 1;
    const byStatus = this.byClass.get(meta.cls) ?? new Map<number, number>();
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    this.byClass.set(meta.cls, byStatus);
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    this.covered.add(`${meta.where} ${meta.ruleset} ${meta.subject}`);
  }

  note(failure: Failure, context: string, status: number, sent?: Sent, label = '', before: readonly string[] = []): void {
    const key = `${failure.check} | ${context}`;
    const group = this.groups.get(key) ?? { check: failure.check, context, count: 0, statuses: [], examples: [] };
    group.count += 1;
    if (!group.statuses.includes(status)) group.statuses.push(status);
    if (group.examples.length < 3) {
      const request = sent ? `${sent.method} ${sent.path}${sent.accept ? ` (Accept: ${sent.accept})` : ''}${sent.body !== undefined ? ` ${printable(sent.body, 400)}` : ''}` : '';
      group.examples.push({ label, status, detail: failure.detail.slice(0, 400), request, before: [...before] });
    }
    this.groups.set(key, group);
    this.noted += 1;
  }

  /** How many problems were noted so far (to tell one test's from another's). */
  mark(): { noted: number; keys: Set<string> } {
    return { noted: this.noted, keys: new Set(this.groups.keys()) };
  }

  since(mark: { noted: number; keys: Set<string> }): { count: number; text: string } {
    const groups = [...this.groups.entries()].filter(([key]) => !mark.keys.has(key)).map(([, g]) => g);
    return { count: this.noted - mark.noted, text: Findings.report(groups) };
  }

  /** Problems whose check starts with this text. */
  countOf(prefix: string): number {
    return [...this.groups.values()].filter((g) => g.check.startsWith(prefix)).reduce((sum, g) => sum + g.count, 0);
  }

  static report(groups: readonly ProblemGroup[]): string {
    return [...groups]
      .sort((a, b) => a.check.localeCompare(b.check) || b.count - a.count)
      .map((g) => {
        const example = g.examples[0];
        return [
          `✗ ${g.check} — ${g.context}: ${g.count} (status ${g.statuses.join(', ')})`,
          `    e.g. ${example.label ? `[${example.label}] ` : ''}${example.request}`,
          `    -> ${example.detail}`,
          ...(example.before.length ? [`    after: ${example.before.slice(-3).join('\n           ')}`] : []),
        ].join('\n');
      })
      .join('\n');
  }

  /** Every group with its examples, for whoever fixes them. */
  write(file: string): void {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify([...this.groups.values()], null, 1));
  }
}
