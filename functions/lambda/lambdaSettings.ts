import { readSettings, type Settings } from '../config/settings';
import { logger } from './powertools';

let read: Settings | undefined;

/** This container's settings (functions/config/settings.ts), read once; an old name still in use is logged as a warning. */
export function lambdaSettings(): Settings {
  if (read) return read;
  const { settings, warnings } = readSettings(process.env);
  for (const warning of warnings) logger.warn(warning);
  return (read = settings);
}
