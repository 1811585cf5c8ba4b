import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  FlowContentUploadAnswer,
  FlowDocumentAnswer,
  FlowNode,
  FlowSingleUploadAnswer,
  FlowTestPosition,
  FlowTestStart,
  FlowView,
} from '../../functions/contracts/flows';
import type { SimulatorReceivedPage } from '../../functions/contracts/simulator';
import { putCampaignSettingsItem } from '../../functions/data/campaign-settings-repository';
import { getConnection } from '../../functions/data/connection-repository';
import { getMediaObject, headMediaObject, putMediaObject } from '../../functions/data/media-store';
import { nextId } from '../../functions/data/counter-repository';
import { createQueue } from '../../functions/data/queue-repository';
import { connectedSimulatorConnection, waitFor } from '../helpers/connections';
import { api, freshCompany, TINY_PNG, type TestCompany } from '../helpers/fixtures';

/**
 * The visual editor's server side (issue 17 items 1 and 7; decisions D159, D160): flow media through
 * presigned PUTs with the byte check at save, and trying a saved flow on the phone simulator with the run's
 * current node read back for the canvas.
 */
let t: TestCompany;
let sales: number;

beforeAll(async () => {
  t = await freshCompany();
  sales = (await createQueue(t.company.id, { name: 'Vendas', color: `#${randomUUID().slice(0, 6)}` })).id;
  await putCampaignSettingsItem(t.company.id, { messageInterval: 0, greaterInterval: 0, longerIntervalAfter: 0 });
});

const admin = () => api(t.adminToken);

const newFlow = async (): Promise<FlowView> => {
  const res = await admin().post('/flowbuilder', { name: `Fluxo ${randomUUID().slice(0, 6)}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as FlowView;
};

const node = (id: string, type: FlowNode['type'], data: Record<string, unknown> = {}): FlowNode => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data,
});

/** A start node followed by a content node with one media card of `kind` naming `key`. */
const mediaDocument = (flowId: number, kind: 'img' | 'audio' | 'video', key: string) => ({
  idFlow: flowId,
  nodes: [
    node('1', 'start'),
    node('content', 'singleBlock', {
      seq: [`${kind}1`],
      elements: [{ number: `${kind}1`, type: kind, value: key, original: 'arquivo' }],
    }),
  ],
  connections: [{ source: '1', target: 'content' }],
});

const presign = async (flowId: number, medias: { name: string; type: string; size: number; contentType: string }[]) =>
  admin().post('/flowbuilder/content', { idFlow: flowId, medias });

const upload = async (u: FlowContentUploadAnswer['data'][number], bytes: Buffer) => {
  const put = await fetch(u.uploadUrl, { method: u.method, headers: u.headers, body: bytes });
  expect(put.status).toBe(200);
};

// A minimal MP3 frame header and an Ogg page start: what the type check reads from the first bytes.
const MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(200, 1)]);

describe('flow media uploads', () => {
  it('a content card image goes up by presigned PUT and is saved in the document', async () => {
    const flow = await newFlow();
    const res = await presign(flow.id, [
      { name: 'Promoção.png', type: 'img', size: TINY_PNG.length, contentType: 'image/png' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [image] = (res.body as FlowContentUploadAnswer).data;
    expect(image).toMatchObject({ original: 'Promoção.png', type: 'img', method: 'PUT' });
    expect(image!.key.startsWith(`c/${t.company.id}/flows/${flow.id}/`)).toBe(true);
    await upload(image!, TINY_PNG);

    const saved = await admin().post('/flowbuilder/flow', mediaDocument(flow.id, 'img', image!.key));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const doc = (await admin().get(`/flowbuilder/flow/${flow.id}`)).body as FlowDocumentAnswer;
    expect(JSON.stringify(doc.flow.flow)).toContain(image!.key);
    expect(await getMediaObject(image!.key)).toEqual(TINY_PNG);
  });

  it('refuses before the upload a file too large or of another kind, with the spec texts', async () => {
    const flow = await newFlow();
    const res = await presign(flow.id, [
      { name: 'foto.png', type: 'img', size: 2 * 1024 * 1024 + 1, contentType: 'image/png' },
      { name: 'voz.mp3', type: 'audio', size: 5 * 1024 * 1024 + 1, contentType: 'audio/mpeg' },
      { name: 'filme.mp4', type: 'video', size: 20 * 1024 * 1024 + 1, contentType: 'video/mp4' },
      { name: 'foto.gif', type: 'img', size: 100, contentType: 'image/gif' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([
      { field: 'body.medias.0', reason: 'foto.png: Arquivo é muito grande! 2MB máximo' },
      { field: 'body.medias.1', reason: 'voz.mp3: Arquivo é muito grande! 5MB máximo' },
      { field: 'body.medias.2', reason: 'filme.mp4: Arquivo é muito grande! 20MB máximo' },
      { field: 'body.medias.3', reason: 'foto.gif: Formato não aceito! Use png, jpg ou jpeg' },
    ]);
  });

  it('the save reads the bytes: a file larger than its kind allows is refused naming the node, and deleted', async () => {
    const flow = await newFlow();
    const key = `c/${t.company.id}/flows/${flow.id}/${randomUUID()}/grande.png`;
    await putMediaObject(key, Buffer.concat([TINY_PNG, Buffer.alloc(2 * 1024 * 1024)]), 'image/png');

    const res = await admin().post('/flowbuilder/flow', mediaDocument(flow.id, 'img', key));
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([
      {
        field: 'body.nodes.1.data.elements.0.value',
        reason: 'node content (singleBlock): Arquivo é muito grande! 2MB máximo',
      },
    ]);
    expect(await headMediaObject(key)).toBeNull();
    expect(((await admin().get(`/flowbuilder/flow/${flow.id}`)).body as FlowDocumentAnswer).flow.flow).toBeNull();
  });

  it('the save reads the type from the bytes, not the name: an "image" that is audio is refused and deleted', async () => {
    const flow = await newFlow();
    const res = await presign(flow.id, [{ name: 'foto.png', type: 'img', size: MP3.length, contentType: 'image/png' }]);
    const [image] = (res.body as FlowContentUploadAnswer).data;
    await upload(image!, MP3);

    const saved = await admin().post('/flowbuilder/flow', mediaDocument(flow.id, 'img', image!.key));
    expect(saved.status).toBe(400);
    expect(saved.body.fields[0].reason).toBe('node content (singleBlock): Formato não aceito! Use png, jpg ou jpeg');
    expect(await headMediaObject(image!.key)).toBeNull();

    // The same bytes are a good audio card.
    const again = await presign(flow.id, [
      { name: 'voz.mp3', type: 'audio', size: MP3.length, contentType: 'audio/mpeg' },
    ]);
    const [audio] = (again.body as FlowContentUploadAnswer).data;
    await upload(audio!, MP3);
    const ok = await admin().post('/flowbuilder/flow', mediaDocument(flow.id, 'audio', audio!.key));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('a file named in the document but never uploaded refuses the save', async () => {
    const flow = await newFlow();
    const key = `c/${t.company.id}/flows/${flow.id}/${randomUUID()}/nunca.mp4`;
    const res = await admin().post('/flowbuilder/flow', mediaDocument(flow.id, 'video', key));
    expect(res.status).toBe(400);
    expect(res.body.fields[0].reason).toBe('node content (singleBlock): Delete os cards vazios(Imagem, Audio e Video)');
  });

  it('/flowbuilder/img and /flowbuilder/audio answer the name of one file of their kind', async () => {
    const flow = await newFlow();
    const img = await admin().post('/flowbuilder/img', {
      idFlow: flow.id,
      medias: [{ name: 'logo.jpeg', size: 100, contentType: 'image/jpeg' }],
      fromMe: true,
    });
    expect(img.status, JSON.stringify(img.body)).toBe(200);
    const answer = img.body as FlowSingleUploadAnswer;
    expect(answer.name).toBe(answer.key);
    expect(answer).toMatchObject({ type: 'img', original: 'logo.jpeg' });

    const audio = await admin().post('/flowbuilder/audio', {
      idFlow: flow.id,
      medias: [{ name: 'logo.png', size: 100, contentType: 'image/png' }],
    });
    expect(audio.status).toBe(400);
    expect(audio.body.fields[0].reason).toBe('logo.png: Formato não aceito! Use ogg, mp3, opus ou mpeg');
  });

  it("another company's flow takes no upload (404, like a missing one)", async () => {
    const other = await freshCompany();
    await nextId(other.company.id, 'flow', 1000);
    const theirs = await api(other.adminToken).post('/flowbuilder', { name: 'Deles' });
    const res = await presign(theirs.body.id as number, [
      { name: 'foto.png', type: 'img', size: 100, contentType: 'image/png' },
    ]);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_FLOW_NOT_FOUND');
  });
});

describe('trying a flow on the phone simulator', () => {
  it('refuses a flow never saved', async () => {
    const flow = await newFlow();
    const res = await admin().post('/flowbuilder/test', { flowId: flow.id, whatsappId: 1 });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ field: 'body.flowId', reason: 'Salve o fluxo antes de testar' }]);
  });

  it('makes the flow the connection welcome flow, and the canvas can follow the customer run node by node', async () => {
    const flow = await newFlow();
    const saved = await admin().post('/flowbuilder/flow', {
      idFlow: flow.id,
      nodes: [
        node('1', 'start'),
        node('menu', 'menu', { message: 'Como ajudar?', arrayOption: [{ number: 1, value: 'Comprar' }] }),
        node('queue', 'ticket', { queueId: sales }),
      ],
      connections: [
        { source: '1', target: 'menu' },
        { source: 'menu', sourceHandle: 'a1', target: 'queue' },
      ],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const whatsappId = await connectedSimulatorConnection(t.adminToken, t.company.id);

    const res = await admin().post('/flowbuilder/test', { flowId: flow.id, whatsappId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const test = res.body as FlowTestStart;
    expect(test).toMatchObject({ flowId: flow.id, whatsappId, version: 1 });
    expect(test.number).toMatch(/^\d{13}$/);
    expect((await getConnection(t.company.id, whatsappId))?.flowIdWelcome).toBe(flow.id);

    const position = () =>
      admin()
        .get(`/flowbuilder/test/${flow.id}`, { whatsappId: String(whatsappId), number: test.number })
        .then((r) => r.body as FlowTestPosition);
    expect(await position()).toEqual({ run: null });

    // The inbound job may reuse the connection it read for up to a second (decisions D67).
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const hello = await admin().post(`/simulator/${whatsappId}/messages`, { number: test.number, body: 'Oi' });
    expect(hello.status, JSON.stringify(hello.body)).toBe(200);
    const waiting = await waitFor(position, (p) => p.run?.status === 'waiting', {
      what: 'the run waiting on the menu',
      timeoutMs: 40_000,
    });
    expect(waiting.run).toMatchObject({ nodeId: 'menu', version: 1, endReason: null });
    await waitFor(
      () =>
        admin()
          .get(`/simulator/${whatsappId}/messages`, { number: test.number })
          .then((r) => (r.body as SimulatorReceivedPage).messages.map((m) => m.body)),
      (bodies) => bodies.includes('Como ajudar?\n\n*1* - Comprar'),
      { what: 'the menu on the phone', timeoutMs: 40_000 },
    );

    await admin().post(`/simulator/${whatsappId}/messages`, { number: test.number, body: '1' });
    const ended = await waitFor(position, (p) => p.run?.status === 'ended', {
      what: 'the run ended in the queue',
      timeoutMs: 40_000,
    });
    expect(ended.run).toMatchObject({ nodeId: null, endReason: 'handed-to-queue' });

    // A second test gets another customer, whose first message starts the flow again.
    const second = (await admin().post('/flowbuilder/test', { flowId: flow.id, whatsappId })).body as FlowTestStart;
    expect(second.number).not.toBe(test.number);
  });

  it('a connection of another company is not found, and its flows are not there to test', async () => {
    const other = await freshCompany();
    // Ids are numbered per company: the other company's flow gets an id this one never had.
    await nextId(other.company.id, 'flow', 1000);
    const theirs = await api(other.adminToken).post('/flowbuilder', { name: 'Deles' });
    const res = await admin().get(`/flowbuilder/test/${theirs.body.id as number}`, {
      whatsappId: '1',
      number: '5511900000001',
    });
    expect(res.status).toBe(404);
  });
});
