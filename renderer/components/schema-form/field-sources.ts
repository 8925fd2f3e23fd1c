import type { ElicitField } from '../../../shared/elicitation/elicitation-schema.js';
import type { FieldNode, FieldSpec } from './schema-model.js';

/**
 * The two sources besides a tool's inputSchema, mapped onto the engine's model. Neither
 * parses a schema here: prompt arguments are already a flat list, and an elicitation's
 * requestedSchema is parsed (and its stricter subset enforced) by shared/elicitation.
 */

/** One string argument of a prompt or resource template. */
export interface ArgumentSpec {
  name: string;
  label: string;
  description?: string;
  required: boolean;
}

function rootOf(properties: FieldNode[]): FieldNode {
  return {
    name: '',
    title: null,
    description: null,
    required: true,
    defaultValue: undefined,
    spec: { kind: 'object', properties },
  };
}

function text(): Extract<FieldSpec, { kind: 'string' }> {
  return {
    kind: 'string',
    options: null,
    blankOption: true,
    format: null,
    localTime: false,
    multiline: false,
  };
}

/** Prompt arguments or template variables: one plain text field each. */
export function argumentsRootOf(args: ArgumentSpec[]): FieldNode {
  return rootOf(
    args.map((a) => ({
      name: a.name,
      title: a.label,
      description: a.description ?? null,
      required: a.required,
      defaultValue: undefined,
      spec: text(),
    })),
  );
}

function elicitSpecOf(f: ElicitField): FieldSpec {
  switch (f.kind) {
    case 'string':
      return {
        ...text(),
        format: f.format ?? null,
        localTime: f.format === 'date-time',
        minLength: f.minLength,
        maxLength: f.maxLength,
      };
    case 'enum':
      // Without a default nothing is chosen until the person chooses.
      return { ...text(), options: f.options, blankOption: f.default === undefined || !f.required };
    case 'number':
      return { kind: 'number', integer: f.integer, minimum: f.minimum, maximum: f.maximum };
    case 'boolean':
      return { kind: 'boolean' };
    case 'multi-enum':
      return { kind: 'multi', options: f.options, minItems: f.minItems, maxItems: f.maxItems };
  }
}

/** An elicitation form (fields as parsed by shared/elicitation): flat, one field per property. */
export function elicitRootOf(fields: ElicitField[]): FieldNode {
  return rootOf(
    fields.map((f) => ({
      name: f.name,
      title: f.title ?? null,
      description: f.description ?? null,
      required: f.required,
      defaultValue: f.default,
      spec: elicitSpecOf(f),
    })),
  );
}
