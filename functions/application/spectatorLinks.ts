import type { CommitFeed } from './commitFeed';
import type { Credentials } from './credentials';
import { invalidRequest, notFound } from './errors';
import type { GameRepository } from './gameRepository';
import { hashToken, newToken, randomId } from './tokens';
import { ViewerRequest, type ViewerListing, type Viewers } from './viewers';
import { fieldIssues, IN_WORDS } from './zodIssues';

/** The organizer's spectator links: created with a token shown once, revoked at once. */
export class SpectatorLinks {
  constructor(
    private readonly games: GameRepository,
    private readonly credentials: Credentials,
    private readonly viewers: Viewers,
    private readonly feed: CommitFeed,
    private readonly now: () => string,
  ) {}

  /** POST /games/{id}/viewers: a read-only link, its token shown once. */
  async addViewer(gameId: string, token: string | undefined, body: unknown): Promise<{ viewerId: string; token: string; label?: string }> {
    const game = await this.games.load(gameId);
    await this.credentials.organizerOnly(game, token, 'create spectator links');
    const request = ViewerRequest.safeParse(body ?? {}, IN_WORDS);
    if (!request.success) throw invalidRequest(fieldIssues(request.error));
    const viewerToken = newToken();
    const viewerId = randomId('v');
    const { label } = request.data;
    await this.viewers.add(game, { viewerId, tokenHash: hashToken(viewerToken), ...(label ? { label } : {}), createdAt: this.now(), revoked: false });
    return { viewerId, token: viewerToken, ...(label ? { label } : {}) };
  }

  /** GET /games/{id}/viewers: every link of the game, revoked ones too, oldest first; never a token. */
  async listViewers(gameId: string, token: string | undefined): Promise<{ gameId: string; viewers: ViewerListing[] }> {
    const game = await this.games.load(gameId);
    await this.credentials.organizerOnly(game, token, 'list spectator links');
    const viewers = (await this.viewers.all(game)).map(({ viewerId, label, createdAt, revoked }) => ({ viewerId, ...(label ? { label } : {}), createdAt, revoked }));
    return { gameId, viewers: viewers.sort((a, b) => a.createdAt.localeCompare(b.createdAt)) };
  }

  /** DELETE /games/{id}/viewers/{viewerId}: the link stops working at once. */
  async revokeViewer(gameId: string, token: string | undefined, viewerId: string): Promise<void> {
    const game = await this.games.load(gameId);
    await this.credentials.organizerOnly(game, token, 'revoke spectator links');
    if (!(await this.viewers.revoke(game, viewerId))) throw notFound(`This game has no spectator link ${JSON.stringify(viewerId)}.`);
    this.feed.accessChanged(gameId);
  }
}
