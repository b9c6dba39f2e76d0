import type { ClockedGame, TimeControl } from '../../domain/game/clock';

/** An overdue side, as the channels tell it (docs/notifications.md "Reminders"). */
export interface Reminder {
  gameId: string;
  gameTitle: string;
  /** The side to move, past the game's time control. */
  side: string;
  /** recordedAt of the commit after which `side` came to move: the move the reminder is about. */
  since: string;
  /** When the engine found the side overdue. */
  asOf: string;
  /** The time the side has used in the whole game, the current move up to `asOf` included. */
  usedSeconds: number;
  timeControl: TimeControl;
  timelineUrl: string;
}

/** The reminder of `side` in `game` as of `asOf` (the side must be the one to move, and the game must have a time control). */
export function reminderOf(game: ClockedGame & { gameId: string; gameTitle: string; timelineUrl: string }, side: string, asOf: string): Reminder {
  const sinceLast = Math.max(0, Date.parse(asOf) - Date.parse(game.lastRecordedAt));
  return {
    gameId: game.gameId,
    gameTitle: game.gameTitle,
    side,
    since: game.clock.since,
    asOf,
    usedSeconds: ((game.clock.usedMs.get(side) ?? 0) + sinceLast) / 1000,
    timeControl: game.timeControl!,
    timelineUrl: game.timelineUrl,
  };
}

/** One reminder per subscription, side and move: `msg_<subscriptionId>_remind_<side>_<since in ms>`, also what the store remembers. */
export const reminderMessageId = (subscriptionId: string, reminder: Pick<Reminder, 'side' | 'since'>) =>
  `msg_${subscriptionId}_remind_${reminder.side.replace(/[^A-Za-z0-9_-]/g, '-')}_${Date.parse(reminder.since)}`;
