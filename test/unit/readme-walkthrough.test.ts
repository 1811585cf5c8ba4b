import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The README's walk through the connections screen (tracker issue 14, item 1) names what the screen shows,
 * in Portuguese, in the order a new user meets it: the labels come from the app's own pt catalogue, so a
 * renamed button or a walkthrough that skips a step fails here.
 */
const readme = readFileSync('README.md', 'utf8');
const pt = JSON.parse(readFileSync('frontend/src/i18n/pt.json', 'utf8')) as Record<string, unknown>;

const label = (key: string): string => {
  const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], pt);
  if (typeof value !== 'string') throw new Error(`no label ${key}`);
  return value;
};

const STEPS = [
  'connections.title',
  'connections.add',
  'connections.channels.whatsapp',
  'connections.dialog.name',
  'connections.dialog.add',
  'connections.columns.session',
  'connections.session.qrcode',
  'connections.qr.simulateScan',
  'connections.status.connected',
  'connections.columns.actions',
  'simulator.rowButton',
  'simulator.title',
  'simulator.customer.number',
  'simulator.customer.open',
  'simulator.composer.label',
  'simulator.composer.send',
];

describe("the README's connections walkthrough", () => {
  it('names each label of the screen, bold, in the order the screen shows them', () => {
    const section = readme.slice(readme.indexOf('On screen'), readme.indexOf('To try the import'));
    let from = 0;
    for (const key of STEPS) {
      const at = section.indexOf(`**${label(key)}**`, from);
      expect(at, `**${label(key)}** (${key}) after position ${from}`).toBeGreaterThanOrEqual(0);
      from = at;
    }
  });

  it("says the scan is the QR code dialog's button and the Simulador comes once connected", () => {
    expect(readme).not.toMatch(/scan its\s+QR with the simulator/);
    expect(readme).not.toContain('Connections → a connected');
    const workspace = readme.slice(readme.indexOf("To see the attendant's workspace"));
    expect(workspace).toContain(
      `**${label('connections.session.qrcode')}** → **${label('connections.qr.simulateScan')}**`,
    );
  });
});
