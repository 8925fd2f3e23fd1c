import { useMemo, useState, type FormEvent } from 'react';
import type { ResourceTemplate } from '../../../shared/domain/mcp-types.js';
import { ArgumentFields } from '../../components/argument-fields.js';
import { expandTemplate, templateVariables } from '../../lib/uri-template.js';
import { AttachButton } from './attach-button.js';
import { ReadResult } from './read-result.js';
import { useResourceRead } from './use-resource-read.js';

/** A resource template: one field per `{variable}`, with completion, then a read. */
export function TemplateDetail({
  serverId,
  template,
  canComplete,
}: {
  serverId: string;
  template: ResourceTemplate;
  canComplete: boolean;
}) {
  const variables = useMemo(() => templateVariables(template.uriTemplate), [template.uriTemplate]);
  const [values, setValues] = useState<Record<string, string>>({});
  const { state, read } = useResourceRead(serverId);
  const uri = expandTemplate(template.uriTemplate, values);
  const missing = variables.filter((v) => !values[v]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    read(uri);
  };

  return (
    <form className="panel template-detail" onSubmit={onSubmit} data-testid="template-detail">
      <div className="detail-head">
        <h2>{template.title ?? template.name}</h2>
        <span className="badge subtle">{serverId}</span>
        <span className="badge subtle">template</span>
      </div>
      <code className="uri">{template.uriTemplate}</code>
      {template.description && <p className="description">{template.description}</p>}
      {/* Above the fields: a field's completion list floats over what is below it. */}
      <div className="uri-preview">
        <span className="muted">URI</span> <code data-testid="template-uri">{uri}</code>
      </div>
      <ArgumentFields
        idPrefix="template-var"
        fields={variables.map((v) => ({ name: v, label: v, required: true }))}
        values={values}
        onChange={setValues}
        serverId={serverId}
        completionRef={{ type: 'ref/resource', uri: template.uriTemplate }}
        completionEnabled={canComplete}
      />
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={missing.length > 0 || state.kind === 'reading'}
          data-testid="read-template"
        >
          Read
        </button>
        {/* The URI that was read, not the one being typed: attach what the person has seen. */}
        {state.kind === 'read' && <AttachButton serverId={serverId} uri={state.uri} name={state.uri} />}
        {missing.length > 0 && <span className="muted">Fill in {missing.join(', ')}</span>}
      </div>
      <ReadResult state={state} />
    </form>
  );
}
