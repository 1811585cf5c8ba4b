import Button from '@cloudscape-design/components/button';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { createContext, use } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContentElement } from '@contracts/flows';
import type { EditorNode } from './flow-graph';

/** What every node on the canvas needs from the editor. */
export interface CanvasActions {
  duplicate: (id: string) => void;
  remove: (id: string) => void;
  /** A queue's name, for the ticket node (§2 "a ticket node shows the queue name"). */
  queueName: (id: number) => string | undefined;
  /** The node the tested run is on (decisions D160), outlined. */
  activeNodeId: string | null;
}

export const CanvasActionsContext = createContext<CanvasActions>({
  duplicate: () => undefined,
  remove: () => undefined,
  queueName: () => undefined,
  activeNodeId: null,
});

const KIND_COLOURS: Record<string, string> = {
  start: '#2e7d32',
  singleBlock: '#0972d3',
  message: '#0972d3',
  menu: '#7d4cdb',
  randomizer: '#c33d69',
  interval: '#8d6605',
  ticket: '#037f0c',
  question: '#00819c',
  condition: '#5f6b7a',
  typebot: '#d45b07',
  openai: '#10a37f',
};

const cut = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** §2: a content node lists its items (text preview, 'N segundos', original file name). */
function Summary({ node }: { node: Pick<EditorNode, 'type' | 'data'> }) {
  const { t } = useTranslation();
  const { queueName } = use(CanvasActionsContext);
  const d = node.data;
  switch (node.type) {
    case 'start':
      return <div>{t('flowEditor.kinds.start')}</div>;
    case 'message':
      return <div>{cut(String(d.label ?? ''))}</div>;
    case 'singleBlock': {
      const elements = (d.elements ?? []) as ContentElement[];
      if (elements.length === 0) return <div style={{ opacity: 0.7 }}>{t('flowEditor.node.empty')}</div>;
      return (
        <ul style={{ margin: 0, paddingInlineStart: 16 }}>
          {elements.map((e) => (
            <li key={e.number}>
              {e.type === 'message'
                ? cut(String(e.value), 40)
                : e.type === 'interval'
                  ? t('flowEditor.node.seconds', { count: Number(e.value) })
                  : `${t(`flowEditor.content.${e.type}`)}: ${e.original ?? ''}`}
            </li>
          ))}
        </ul>
      );
    }
    case 'menu':
      return <div>{cut(String(d.message ?? ''))}</div>;
    case 'randomizer':
      return <div>{t('flowEditor.node.split', { a: Number(d.percent ?? 0), b: 100 - Number(d.percent ?? 0) })}</div>;
    case 'interval':
      return <div>{t('flowEditor.node.seconds', { count: Number(d.sec ?? 0) })}</div>;
    case 'ticket':
      return (
        <div>
          {d.queueId ? (queueName(Number(d.queueId)) ?? `#${String(d.queueId)}`) : t('flowEditor.node.noQueue')}
        </div>
      );
    case 'question':
      return (
        <div>
          {cut(String(d.message ?? ''))}
          {d.answerKey ? <div style={{ opacity: 0.7 }}>{`{{${String(d.answerKey)}}}`}</div> : null}
        </div>
      );
    case 'condition':
      return <div>{`${String(d.key ?? '')} ${String(d.condition ?? '')} ${String(d.value ?? '')}`}</div>;
    case 'typebot':
    case 'openai':
      return <div>{String(d.name ?? '')}</div>;
    case 'img':
    case 'audio':
    case 'video':
      return (
        <div>
          {String(d.url ?? '')
            .split('/')
            .pop()}
        </div>
      );
    default:
      return null;
  }
}

const handleStyle = { width: 10, height: 10 };

/**
 * One node on the canvas: its kind, what it holds, its duplicate and delete icons (not on the start node),
 * an input on the left (none on start) and its outputs on the right — one per menu option, A and B on a
 * randomizer, one otherwise.
 */
export function FlowCanvasNode({ id, type, data, selected }: NodeProps<EditorNode>) {
  const { t } = useTranslation();
  const actions = use(CanvasActionsContext);
  const active = actions.activeNodeId === id;
  const colour = KIND_COLOURS[type] ?? '#5f6b7a';
  const options = type === 'menu' ? ((data.arrayOption ?? []) as { number: number; value: string }[]) : [];
  return (
    <div
      data-testid={`flow-node-${type}`}
      data-node-id={id}
      data-active={active ? 'true' : undefined}
      style={{
        minWidth: 180,
        maxWidth: 260,
        background: 'var(--flow-node-background, #fff)',
        color: 'var(--flow-node-text, #000716)',
        border: `2px solid ${active ? '#ff9900' : selected ? colour : 'var(--flow-node-border, #b6bec9)'}`,
        boxShadow: active ? '0 0 0 4px rgba(255, 153, 0, 0.45)' : '0 1px 3px rgba(0,0,0,0.2)',
        borderRadius: 8,
        fontSize: 12,
      }}
    >
      {type !== 'start' && <Handle type="target" position={Position.Left} style={handleStyle} />}
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          background: colour,
          color: '#fff',
          padding: '2px 6px',
          borderRadius: '6px 6px 0 0',
          fontWeight: 'bold',
        }}
      >
        <span>{t(`flowEditor.kinds.${type}`)}</span>
        {type !== 'start' && (
          <span className="nodrag" style={{ display: 'flex' }}>
            <Button
              variant="inline-icon"
              iconName="copy"
              ariaLabel={t('flowEditor.node.duplicate')}
              onClick={() => actions.duplicate(id)}
            />
            <Button
              variant="inline-icon"
              iconName="remove"
              ariaLabel={t('flowEditor.node.delete')}
              onClick={() => actions.remove(id)}
            />
          </span>
        )}
      </div>
      <div style={{ padding: 8, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        <Summary node={{ type, data }} />
      </div>
      {type === 'menu' ? (
        options.map((o) => (
          <div key={o.number} style={{ position: 'relative', padding: '2px 14px 2px 8px', textAlign: 'right' }}>
            {`${o.number} - ${cut(o.value, 30)}`}
            <Handle
              id={`a${o.number}`}
              type="source"
              position={Position.Right}
              style={{ ...handleStyle, top: 'auto', bottom: 6 }}
            />
          </div>
        ))
      ) : type === 'randomizer' ? (
        (['a', 'b'] as const).map((h) => (
          <div key={h} style={{ position: 'relative', padding: '2px 14px 2px 8px', textAlign: 'right' }}>
            {h.toUpperCase()}
            <Handle id={h} type="source" position={Position.Right} style={{ ...handleStyle, top: 'auto', bottom: 6 }} />
          </div>
        ))
      ) : (
        <Handle type="source" position={Position.Right} style={handleStyle} />
      )}
    </div>
  );
}
