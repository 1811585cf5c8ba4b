import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listColumnsOf } from '../../functions/core/contacts/contact-import-service';
import { readSheetRows } from '../../functions/core/contacts/spreadsheet';
import { importNumber } from '../../functions/core/phone-number';

/** A contact list's sheet has no mapping screen (decisions D122): its columns come from the header row. */
describe('the columns of a contact list sheet', () => {
  it('are read from the header names, in any order, accents and case ignored', () => {
    expect(listColumnsOf(['E-mail', 'Número', 'Nome'])).toEqual(['email', 'number', 'name']);
    expect(listColumnsOf(['Telefone', 'Cidade', 'NOME'])).toEqual(['number', null, 'name']);
    expect(listColumnsOf(['nome', 'whatsapp', 'nome'])).toEqual(['name', 'number', null]);
  });

  it("fall back to the example's order when the header names neither a name nor a number", () => {
    expect(listColumnsOf(['Maria', '5511999990001'])).toEqual(['name', 'number', 'email']);
    expect(listColumnsOf(['Nome', 'Coluna B'])).toEqual(['name', 'number', 'email']);
  });

  it('the example spreadsheet the screen offers imports as name, number and e-mail', async () => {
    const rows: string[][] = [];
    for await (const row of readSheetRows(readFileSync('frontend/public/planilha-exemplo-lista-de-contatos.xlsx'))) {
      rows.push(row);
    }
    expect(listColumnsOf(rows[0]!)).toEqual(['name', 'number', 'email']);
    expect(rows.slice(1).map((r) => importNumber(r[1]!))).toEqual(['5511999990001', '5521988880002']);
  });
});
