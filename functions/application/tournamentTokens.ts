import type { TournamentRecord, TournamentStore } from '../ports/eventStore';
import { notFound, unauthenticated } from './errors';
import { hashMatches, presentedHash } from './tokens';

const TOURNAMENT_ID = /^t-[A-Za-z0-9_-]{1,62}$/;
const KEPT = 1000;

/** A tournament's organizer token, checked against its hash. Records never change, so a process keeps those it has read. */
export class TournamentTokens {
  private readonly records = new Map<string, TournamentRecord>();

  constructor(private readonly store: Pick<TournamentStore, 'readTournament'>) {}

  /** 404 for an unknown tournament, then 401 for a missing or wrong token (http-api.md's precedence). */
  async authenticate(tournamentId: string, token: string | undefined): Promise<TournamentRecord> {
    const record = await this.record(tournamentId);
    if (!record) throw notFound('No such tournament.');
    if (!token || !sameHash(record.tokenHash, token)) {
      throw unauthenticated('The token of this tournament is needed (Authorization: Bearer <token>).');
    }
    return record;
  }

  /** Does this token belong to this tournament? */
  async holds(tournamentId: string, token: string): Promise<boolean> {
    const record = await this.record(tournamentId);
    return record !== undefined && sameHash(record.tokenHash, token);
  }

  async record(tournamentId: string): Promise<TournamentRecord | undefined> {
    if (!TOURNAMENT_ID.test(tournamentId)) return undefined;
    const kept = this.records.get(tournamentId);
    if (kept) return kept;
    const record = await this.store.readTournament(tournamentId);
    if (record) {
      if (this.records.size >= KEPT) this.records.delete(this.records.keys().next().value!);
      this.records.set(tournamentId, record);
    }
    return record;
  }
}

function sameHash(hash: string, token: string): boolean {
  return hashMatches(presentedHash(token), hash);
}
