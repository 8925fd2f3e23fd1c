import type { ToolWarningKind } from '../../../shared/domain/tool-trust.js';

/** Plain words for each kind of warning. */
export const WARNING_LABELS: Record<ToolWarningKind, string> = {
  'hidden-unicode': 'Hidden characters',
  'model-instructions': 'Instructions to the model',
  'secret-access': 'Asks for secrets',
  exfiltration: 'May send data away',
  'long-description': 'Very long description',
  'mentions-other-tool': 'Mentions another tool',
  shadowing: 'Name clash',
};
