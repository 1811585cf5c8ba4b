import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WhatsappMarkup, stripWhatsappMarkup } from './whatsapp-markup';

const drawn = (text: string) => render(<WhatsappMarkup text={text} />).container;

describe("WhatsApp's formatting, drawn", () => {
  it('bold, italic, strike, inline code and monospace blocks, nested', () => {
    const box = drawn('*negrito* _itálico_ ~riscado~ `código` *_os dois_*\n```linha 1\n*não* formata```');
    expect([...box.querySelectorAll('strong')].map((e) => e.textContent)).toEqual(['negrito', 'os dois']);
    expect([...box.querySelectorAll('em')].map((e) => e.textContent)).toEqual(['itálico', 'os dois']);
    expect(box.querySelector('s')?.textContent).toBe('riscado');
    expect([...box.querySelectorAll('code')].map((e) => e.textContent)).toEqual(['código', 'linha 1\n*não* formata']);
    expect(box.querySelector('[data-markup="mono"]')?.querySelector('strong')).toBeNull();
  });

  it('markers count only at word edges and on one line', () => {
    const box = drawn('2*3*4 snake_case_name a ~ b ~ c *um\ndois*');
    expect(box.querySelector('strong, em, s')).toBeNull();
    expect(box.textContent).toBe('2*3*4 snake_case_name a ~ b ~ c *um\ndois*');
  });

  it('the signature the composer adds shows in bold, its line break kept', () => {
    const box = drawn('*Administradora Demo:*\nBom dia!');
    expect(box.querySelector('strong')?.textContent).toBe('Administradora Demo:');
    expect(box.textContent).toBe('Administradora Demo:\nBom dia!');
  });

  it('links open in a new tab and keep their underscores; "> " lines are quotes; HTML stays text', () => {
    const box = drawn('veja https://x.y/a_b_c.\n> citado *forte*\n<b>oi</b>');
    const link = box.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('https://x.y/a_b_c');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(box.querySelector('[data-markup="quote"]')?.textContent).toBe('citado forte');
    expect(box.querySelector('b')).toBeNull();
    expect(box.textContent).toContain('<b>oi</b>');
  });
});

describe("WhatsApp's formatting, stripped for previews", () => {
  it('leaves the words: markers gone, one line', () => {
    expect(stripWhatsappMarkup('*Ana Atendente:*\nBom dia, _tudo_ ~bem~?')).toBe('Ana Atendente: Bom dia, tudo bem?');
    expect(stripWhatsappMarkup('```x = 1```  `y`')).toBe('x = 1 y');
    expect(stripWhatsappMarkup('> citado\nresposta')).toBe('citado resposta');
    expect(stripWhatsappMarkup('2*3*4 snake_case')).toBe('2*3*4 snake_case');
    expect(stripWhatsappMarkup(null)).toBe('');
    expect(stripWhatsappMarkup('*a*\nb', { keepLines: true })).toBe('a\nb');
  });
});
