import {
  appSettingsSchema,
  DEFAULT_APP_SETTINGS,
  type AppSettings,
} from '../../../shared/domain/app-settings.js';
import { describeIssues } from '../util/errors.js';

/**
 * Read settings.json's `app` section field by field: a valid value is kept, a bad one falls
 * back to its default and is named in `problems` (so one hand-edited field costs only itself).
 * Keys this version does not know are dropped: the section is small and entirely ours.
 */
export function parseAppSection(value: unknown, problems: string[]): AppSettings {
  const app: AppSettings = { ...DEFAULT_APP_SETTINGS };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push('"app" is not an object');
    return app;
  }
  const shape = appSettingsSchema.shape;
  const merged: Record<string, unknown> = { ...app };
  for (const [key, field] of Object.entries(value)) {
    if (!Object.hasOwn(shape, key)) continue;
    const parsed = shape[key as keyof typeof shape].safeParse(field);
    if (parsed.success) merged[key] = parsed.data;
    else problems.push(`app.${key}: ${describeIssues(parsed.error.issues)}`);
  }
  return appSettingsSchema.parse(merged);
}
