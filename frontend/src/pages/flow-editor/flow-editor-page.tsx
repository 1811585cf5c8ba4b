import '@xyflow/react/dist/style.css';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import {
  addEdge,
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  ReactFlow,
  useEdgesState,
  useNodesState,
  type Connection,
  type EdgeChange,
  type NodeChange,
  type NodeTypes,
} from '@xyflow/react';
import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import type { ContentElement, FlowNodeType, FlowProblem } from '@contracts/flows';
import { ApiError } from '@/api/api-error';
import { getFlowDocument, saveFlowDocument, uploadFlowMedia, type FlowTestPosition } from '@/api/flows';
import { listQueues } from '@/api/queues';
import { useNotifications } from '@/components/notifications';
import { useTheme } from '@/theme';
import { CanvasActionsContext, FlowCanvasNode, type CanvasActions } from './flow-canvas-node';
import {
  canConnect,
  defaultData,
  duplicatePosition,
  EDITABLE,
  edgeId,
  fromDocument,
  newNodeId,
  newNodePosition,
  NODE_MENU,
  toDocument,
  withoutDanglingEdges,
  type EditorEdge,
  type EditorNode,
  type FlowNodeData,
} from './flow-graph';
import { NodeDialog, PENDING_PREFIX, type PendingFile } from './node-dialog';
import { recompressImage } from './recompress-image';
import { TryPanel } from './try-panel';

/** Every node kind draws with the one node component (module level: xyflow wants a stable map). */
const NODE_TYPES: NodeTypes = Object.fromEntries(
  [...NODE_MENU, 'message', 'img', 'audio', 'video'].map((kind) => [kind, FlowCanvasNode]),
) as NodeTypes;

type Dialog = { mode: 'create'; type: FlowNodeType } | { mode: 'edit'; type: FlowNodeType; nodeId: string };

/** Changes that alter the document (not selection or measuring). */
const changesDocument = (changes: readonly (NodeChange | EdgeChange)[]) =>
  changes.some((c) => c.type === 'remove' || c.type === 'add' || (c.type === 'position' && c.dragging === false));

/** The pending file keys content cards name (files picked but not uploaded yet). */
const pendingKeys = (nodes: readonly EditorNode[]): string[] =>
  nodes.flatMap((n) =>
    n.type === 'singleBlock'
      ? ((n.data.elements ?? []) as ContentElement[])
          .map((e) => (typeof e.value === 'string' && e.value.startsWith(PENDING_PREFIX) ? e.value : null))
          .filter((v) => v !== null)
      : [],
  );

const withUploadedKeys = (nodes: readonly EditorNode[], keys: ReadonlyMap<string, string>): EditorNode[] =>
  nodes.map((n) =>
    n.type === 'singleBlock'
      ? {
          ...n,
          data: {
            ...n.data,
            elements: ((n.data.elements ?? []) as ContentElement[]).map((e) =>
              typeof e.value === 'string' && keys.has(e.value) ? { ...e, value: keys.get(e.value)! } : e,
            ),
          },
        }
      : n,
  );

/**
 * /flowbuilder/:flowId (administration §2 Flow builder editor, §4 editor states, §5; decisions D138,
 * D159, D160): 'Desenhe seu fluxo' — a canvas with zoom controls, minimap and dotted background; the node
 * menu; double-click opens a node's dialog; Backspace or Delete removes the selection; nodes have duplicate
 * and delete icons; connections obey the rules while drawn; 'Não se esqueça de salvar seu fluxo!' while
 * there are unsaved changes; Salvar uploads the new files, then posts the document, and a refusal lists the
 * server's reasons by node. "Testar" opens the phone simulator beside the canvas with the run's node outlined.
 */
export function FlowEditorPage() {
  const { t } = useTranslation();
  const notify = useNotifications();
  const navigate = useNavigate();
  const theme = useTheme();
  const flowId = Number(useParams().flowId);
  const [name, setName] = useState<string | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [nodes, setNodes, onNodesChange] = useNodesState<EditorNode>([]);
  const [edges, setEdges, onEdgesChange] = useEdgesState<EditorEdge>([]);
  const [dirty, setDirty] = useState(false);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [files, setFiles] = useState<Map<string, PendingFile>>(new Map());
  const [queues, setQueues] = useState<{ id: number; name: string }[]>([]);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [problems, setProblems] = useState<FlowProblem[]>([]);
  const [testing, setTesting] = useState(false);
  const [activeNodeId, setActiveNodeId] = useState<string | null>(null);

  const loaded = useEffectEvent((answer: Awaited<ReturnType<typeof getFlowDocument>>) => {
    const graph = fromDocument(answer.flow.flow);
    setName(answer.flow.name);
    setNodes(graph.nodes);
    setEdges(graph.edges);
    setDirty(false);
  });
  const failed = useEffectEvent((err: unknown) => {
    notify.error(err);
    setLoadError(true);
  });
  useEffect(() => {
    if (!(Number.isInteger(flowId) && flowId > 0)) return undefined;
    const controller = new AbortController();
    getFlowDocument(flowId, { signal: controller.signal }).then(loaded, (err: unknown) => {
      if (!controller.signal.aborted) failed(err);
    });
    listQueues({ signal: controller.signal }).then(
      (list) => setQueues(list.map((q) => ({ id: q.id, name: q.name }))),
      () => undefined, // the ticket dialog then offers no queue; the save's 400 names the node
    );
    return () => controller.abort();
  }, [flowId]);

  const actions: CanvasActions = useMemo(
    () => ({
      duplicate: (id) => {
        setNodes((list) => {
          const of = list.find((n) => n.id === id);
          if (!of || of.type === 'start') return list;
          const copy: EditorNode = {
            id: newNodeId(),
            type: of.type,
            position: duplicatePosition(list, of),
            data: structuredClone(of.data),
          };
          return [...list, copy];
        });
        setDirty(true);
      },
      remove: (id) => {
        setNodes((list) => list.filter((n) => n.id !== id || n.type === 'start'));
        setEdges((list) => list.filter((e) => e.source !== id && e.target !== id));
        setDirty(true);
      },
      queueName: (id) => queues.find((q) => q.id === id)?.name,
      activeNodeId,
    }),
    [queues, activeNodeId, setNodes, setEdges],
  );

  const variables = useMemo(
    () =>
      [...new Set(nodes.filter((n) => n.type === 'question').map((n) => String(n.data.answerKey ?? '')))].filter(
        Boolean,
      ),
    [nodes],
  );

  const addKind = (type: FlowNodeType) => {
    if (type === 'start') {
      if (nodes.some((n) => n.type === 'start')) {
        notify.notify('warning', t('flowEditor.oneStart'));
        return;
      }
      setNodes((list) => [
        ...list,
        { id: '1', type: 'start', position: newNodePosition(list), data: defaultData('start'), deletable: false },
      ]);
      setDirty(true);
      return;
    }
    setDialog({ mode: 'create', type });
  };

  const saveNode = (data: FlowNodeData, picked: Map<string, PendingFile>) => {
    if (!dialog) return;
    if (picked.size > 0) setFiles((current) => new Map([...current, ...picked]));
    if (dialog.mode === 'create') {
      setNodes((list) => [...list, { id: newNodeId(), type: dialog.type, position: newNodePosition(list), data }]);
    } else {
      const next = nodes.map((n) => (n.id === dialog.nodeId ? { ...n, data } : n));
      setNodes(next);
      setEdges((list) => withoutDanglingEdges(next, list));
    }
    setDirty(true);
    setDialog(null);
  };

  const save = async () => {
    setSaving(true);
    setProblems([]);
    try {
      let current = nodes;
      const pending = [...new Set(pendingKeys(current))];
      if (pending.length > 0) {
        setUploading(true);
        const picked = pending.map((key) => files.get(key)).filter((f) => f !== undefined);
        if (picked.length !== pending.length) throw new Error(t('flowEditor.lostFile'));
        // Images at quality 0.7 before upload (D175); a failure says the spec's 'erro' and uploads nothing.
        let ready: PendingFile[];
        try {
          ready = await Promise.all(
            picked.map(async (p) => (p.type === 'img' ? { ...p, file: await recompressImage(p.file) } : p)),
          );
        } catch {
          notify.notify('error', t('flowEditor.compressError'));
          return;
        }
        const keys = await uploadFlowMedia(flowId, ready);
        current = withUploadedKeys(current, new Map(pending.map((p, i) => [p, keys[i]!])));
        setNodes(current);
        setFiles(new Map());
        setUploading(false);
      }
      await saveFlowDocument({ idFlow: flowId, ...toDocument(current, edges) });
      setDirty(false);
      notify.success(t('flowEditor.saved'));
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.fields.length > 0) setProblems(err.fields);
      notify.error(err);
    } finally {
      setSaving(false);
      setUploading(false);
    }
  };

  const onPosition = (run: FlowTestPosition['run']) => setActiveNodeId(run?.nodeId ?? null);
  const editing = dialog?.mode === 'edit' ? nodes.find((n) => n.id === dialog.nodeId) : undefined;

  if (!(Number.isInteger(flowId) && flowId > 0)) return <Navigate to="/flowbuilders" replace />;
  if (loadError) {
    return (
      <Alert
        type="error"
        header={t('flowEditor.loadError')}
        action={<Button onClick={() => void navigate('/flowbuilders')}>{t('flowEditor.back')}</Button>}
      />
    );
  }
  if (name === null) return <Spinner size="large" />;

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description={name}
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button onClick={() => void navigate('/flowbuilders')}>{t('flowEditor.back')}</Button>
              <ButtonDropdown
                items={NODE_MENU.map((kind) => ({ id: kind, text: t(`flowEditor.kinds.${kind}`) }))}
                onItemClick={({ detail }) => addKind(detail.id as FlowNodeType)}
              >
                {t('flowEditor.addNode')}
              </ButtonDropdown>
              <Button iconName="caret-right-filled" onClick={() => setTesting(true)} disabled={testing}>
                {t('flowEditor.test.open')}
              </Button>
              <Button variant="primary" loading={saving} onClick={() => void save()}>
                {t('common.save')}
              </Button>
            </SpaceBetween>
          }
        >
          {t('flowEditor.title')}
        </Header>
      }
    >
      <SpaceBetween size="s">
        {dirty && <Alert type="warning">{t('flowEditor.unsaved')}</Alert>}
        {uploading && (
          <Box>
            <Spinner /> {t('flowEditor.uploading')}
          </Box>
        )}
        {problems.length > 0 && (
          <Alert type="error" header={t('flowEditor.refused')} dismissible onDismiss={() => setProblems([])}>
            <ul data-testid="flow-problems" style={{ margin: 0 }}>
              {problems.map((p) => (
                <li key={`${p.field}-${p.reason}`}>{p.reason}</li>
              ))}
            </ul>
          </Alert>
        )}
        <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
          <div
            data-testid="flow-canvas"
            style={
              {
                flex: 1,
                height: '70vh',
                minHeight: 420,
                border: '1px solid var(--flow-node-border)',
                borderRadius: 8,
                '--flow-node-background': theme === 'dark' ? '#1b232d' : '#ffffff',
                '--flow-node-text': theme === 'dark' ? '#e9ebed' : '#000716',
                '--flow-node-border': theme === 'dark' ? '#414d5c' : '#b6bec9',
              } as React.CSSProperties
            }
          >
            <CanvasActionsContext value={actions}>
              <ReactFlow<EditorNode, EditorEdge>
                nodes={nodes}
                edges={edges}
                nodeTypes={NODE_TYPES}
                colorMode={theme === 'dark' ? 'dark' : 'light'}
                onNodesChange={(changes) => {
                  onNodesChange(changes);
                  if (changesDocument(changes)) setDirty(true);
                }}
                onEdgesChange={(changes) => {
                  onEdgesChange(changes);
                  if (changesDocument(changes)) setDirty(true);
                }}
                isValidConnection={(c) => canConnect(nodes, edges, { ...c, sourceHandle: c.sourceHandle ?? null })}
                onConnect={(c: Connection) => {
                  if (!canConnect(nodes, edges, c)) return;
                  setEdges((list) => addEdge({ ...c, id: edgeId(c) }, list));
                  setDirty(true);
                }}
                onNodeDoubleClick={(_event, node) => {
                  if (node.type && EDITABLE.has(node.type))
                    setDialog({ mode: 'edit', type: node.type, nodeId: node.id });
                }}
                deleteKeyCode={['Backspace', 'Delete']}
                zoomOnDoubleClick={false}
                fitView
                fitViewOptions={{ maxZoom: 1 }}
              >
                <Background variant={BackgroundVariant.Dots} gap={16} size={1} />
                <Controls />
                <MiniMap pannable zoomable />
              </ReactFlow>
            </CanvasActionsContext>
          </div>
          {testing && (
            <div style={{ width: 380, flexShrink: 0 }}>
              <TryPanel
                flowId={flowId}
                dirty={dirty}
                onPosition={onPosition}
                onClose={() => {
                  setTesting(false);
                  setActiveNodeId(null);
                }}
              />
            </div>
          )}
        </div>
      </SpaceBetween>
      {dialog && (dialog.mode === 'create' || editing) && (
        <NodeDialog
          key={dialog.mode === 'edit' ? dialog.nodeId : `new-${dialog.type}`}
          type={dialog.type}
          mode={dialog.mode}
          data={editing?.data ?? defaultData(dialog.type)}
          queues={queues}
          variables={variables}
          onSave={saveNode}
          onDismiss={() => setDialog(null)}
        />
      )}
    </ContentLayout>
  );
}
