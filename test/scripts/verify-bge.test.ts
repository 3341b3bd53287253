// The verify workflow's checks run where the Hub is reachable; here they must fail at once and
// say why, never pass without BGE-small.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const run = (args: string[]) =>
  spawnSync('npm', ['run', '-s', 'verify:bge', '--', ...args], { cwd: root, encoding: 'utf8' });

describe('npm run verify:bge', () => {
  it.skipIf(existsSync(join(root, 'public/models/bge-small/onnx/model.onnx')))(
    'fails clearly where BGE-small is not on the machine (no Hub)',
    () => {
      for (const step of ['parity', 'locomo-plus', 'protocols', 'rows']) {
        const res = run(['--step', step]);
        expect(res.status).toBe(1);
        expect(res.stderr).toContain(`verify:bge ${step}: BGE-small is not on this machine`);
        expect(res.stderr).toContain('These checks need the Hub');
      }
    },
  );

  it('--help exits 0 with its usage; an unknown option or step exits 2', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain(
      'Usage: npm run verify:bge -- --step parity|locomo-plus|protocols|rows|all',
    );
    expect(run(['--bogus']).status).toBe(2);
    expect(run(['--step', 'nope']).status).toBe(2);
  });
});
