import type { FlowDocument, FlowNode } from '../../contracts/flows';
import { SECRET_MASK } from '../../contracts/integrations';
import { decryptSecret, encryptSecret, isSealed } from '../../shared/token-cipher';

/**
 * The openai nodes' keys (the API key and the speech key) are secrets like a prompt's (DESIGN §Standards,
 * decisions D173 amended): sealed before a flow version is stored and answered as SECRET_MASK. An editor that
 * sends the mask back keeps the key the node's previous version holds; the engine reads them through
 * `openKey`. A key stored before sealing (plain) is read as it is and sealed at the flow's next save.
 */
const PURPOSE = 'integration-secret' as const;
const SECRET_FIELDS = ['apiKey', 'voiceKey'] as const;

type Fields = Partial<Record<(typeof SECRET_FIELDS)[number], unknown>>;

export interface SecretProblem {
  field: string;
  reason: string;
}

/** The document to store: every openai node's keys sealed; a mask with no earlier key is a problem. */
export const sealFlowSecrets = async (
  doc: FlowDocument,
  previous: Pick<FlowDocument, 'nodes'> | null,
): Promise<{ doc: FlowDocument; problems: SecretProblem[] }> => {
  const before = new Map((previous?.nodes ?? []).filter((n) => n.type === 'openai').map((n) => [n.id, n]));
  const problems: SecretProblem[] = [];
  const nodes = await Promise.all(
    doc.nodes.map(async (node, index): Promise<FlowNode> => {
      if (node.type !== 'openai') return node;
      const data = { ...(node.data as Fields) };
      for (const field of SECRET_FIELDS) {
        const value = data[field];
        if (typeof value !== 'string' || value === '') continue;
        if (value !== SECRET_MASK) {
          data[field] = await encryptSecret(PURPOSE, value);
          continue;
        }
        const kept = (before.get(node.id)?.data as Fields | undefined)?.[field];
        if (typeof kept === 'string' && kept !== '' && kept !== SECRET_MASK) {
          data[field] = isSealed(kept) ? kept : await encryptSecret(PURPOSE, kept);
        } else if (field === 'apiKey') {
          problems.push({ field: `body.nodes.${index}.data.apiKey`, reason: `node ${node.id} (openai): Obrigatório` });
        } else {
          delete data[field];
        }
      }
      return { ...node, data } as FlowNode;
    }),
  );
  return { doc: { ...doc, nodes }, problems };
};

/** The nodes as a person sees them: keys replaced by SECRET_MASK. */
export const maskFlowSecrets = (nodes: readonly FlowNode[]): FlowNode[] =>
  nodes.map((node) => {
    if (node.type !== 'openai') return node;
    const data = { ...(node.data as Fields) };
    for (const field of SECRET_FIELDS)
      if (typeof data[field] === 'string' && data[field] !== '') data[field] = SECRET_MASK;
    return { ...node, data } as FlowNode;
  });

/** A stored key in clear, for the call that uses it. */
export const openKey = async (stored: string): Promise<string> =>
  isSealed(stored) ? decryptSecret(PURPOSE, stored) : stored;
