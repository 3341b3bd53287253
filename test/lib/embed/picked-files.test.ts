import { describe, expect, it } from 'vitest';
import { pickedFetch, pickedModel, pickedModels } from '../../../src/lib/embed/picked-files.ts';

describe('pickedFetch, the worker answering from the picked files', () => {
  it('finds no model before one is picked', () => {
    expect(pickedModel('onnx:none')).toBeUndefined();
    expect(pickedModels().filter((m) => m.id === 'onnx:none')).toEqual([]);
  });

  const base = 'https://site.test/models/picked-1/';
  const files = { 'onnx/model.onnx': new Blob(['0123456789']) };
  const network = async () => new Response('network');
  const answer = pickedFetch(base, files, network);

  it('answers a picked file whole or by range, 404 for another, the network elsewhere', async () => {
    expect(await (await answer(`${base}onnx/model.onnx`)).text()).toBe('0123456789');
    const part = await answer(`${base}onnx/model.onnx`, { headers: { range: 'bytes=2-4' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-4/10');
    expect(await part.text()).toBe('234');
    expect((await answer(`${base}vocab.txt`)).status).toBe(404);
    expect(await (await answer('https://site.test/other.js')).text()).toBe('network');
  });
});
