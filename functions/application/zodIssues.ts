import type { z } from 'zod';
import type { FieldIssue } from './errors';

/** Turns zod's issues into `{ field, message }`, fields written as `payload.attackers[0].hex`. */
export function fieldIssues(error: z.ZodError, prefix = ''): FieldIssue[] {
  return error.issues.map((issue) => {
    let field = prefix;
    for (const key of issue.path) {
      field += typeof key === 'number' ? `[${key}]` : field ? `.${String(key)}` : String(key);
    }
    return { field: field || '(body)', message: issue.message };
  });
}
