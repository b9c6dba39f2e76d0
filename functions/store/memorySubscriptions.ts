import { DEAD_LETTERS_KEPT, type DeadLetter, type SubscriptionRecord, type SubscriptionScope, type SubscriptionStore } from '../ports/subscriptionStore';

const scopeKey = (scope: SubscriptionScope) => ('gameId' in scope ? `game\n${scope.gameId}` : `tournament\n${scope.tournamentId}`);

/** Subscriptions in this process's memory: tests and the bench. Maps only: ids are data. */
export class MemorySubscriptions implements SubscriptionStore {
  private readonly records = new Map<string, SubscriptionRecord>();
  private readonly cursors = new Map<string, number>();
  private readonly letters = new Map<string, DeadLetter[]>();
  private readonly reminded = new Map<string, string>();

  async add(record: SubscriptionRecord): Promise<void> {
    if (this.records.has(record.subscriptionId)) throw new Error(`subscription ${record.subscriptionId} exists`);
    this.records.set(record.subscriptionId, structuredClone(record));
  }

  async get(subscriptionId: string): Promise<SubscriptionRecord | undefined> {
    const found = this.records.get(subscriptionId);
    return found && structuredClone(found);
  }

  async inScope(scope: SubscriptionScope): Promise<SubscriptionRecord[]> {
    const key = scopeKey(scope);
    return [...this.records.values()]
      .filter((record) => scopeKey(record.scope) === key)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((record) => structuredClone(record));
  }

  async remove(subscriptionId: string): Promise<boolean> {
    for (const key of this.cursors.keys()) if (key.startsWith(`${subscriptionId}\n`)) this.cursors.delete(key);
    for (const key of this.reminded.keys()) if (key.startsWith(`${subscriptionId}\n`)) this.reminded.delete(key);
    this.letters.delete(subscriptionId);
    return this.records.delete(subscriptionId);
  }

  async confirm(subscriptionId: string): Promise<boolean> {
    const record = this.records.get(subscriptionId);
    if (!record) return false;
    record.status = 'active';
    return true;
  }

  async cursor(subscriptionId: string, gameId: string): Promise<number | undefined> {
    return this.cursors.get(`${subscriptionId}\n${gameId}`);
  }

  async advance(subscriptionId: string, gameId: string, from: number | undefined, to: number): Promise<boolean> {
    const key = `${subscriptionId}\n${gameId}`;
    if (!this.records.has(subscriptionId) || this.cursors.get(key) !== from) return false;
    this.cursors.set(key, to);
    return true;
  }

  async addDeadLetter(subscriptionId: string, letter: DeadLetter): Promise<void> {
    if (!this.records.has(subscriptionId)) return;
    const kept = [...(this.letters.get(subscriptionId) ?? []), letter].slice(-DEAD_LETTERS_KEPT);
    this.letters.set(subscriptionId, kept);
  }

  async deadLetters(subscriptionId: string): Promise<DeadLetter[]> {
    return [...(this.letters.get(subscriptionId) ?? [])];
  }

  async markReminded(subscriptionId: string, gameId: string, key: string): Promise<boolean> {
    const at = `${subscriptionId}\n${gameId}`;
    if (!this.records.has(subscriptionId) || this.reminded.get(at) === key) return false;
    this.reminded.set(at, key);
    return true;
  }
}
