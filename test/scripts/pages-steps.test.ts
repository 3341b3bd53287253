import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expand, PAGES_WORKFLOW, parseJobSteps } from '../../scripts/pages-steps.ts';

const root = join(import.meta.dirname, '../..');
const npm = (args: string[]) =>
  spawnSync('npm', ['run', '-s', 'pages:offline', '--', ...args], { cwd: root, encoding: 'utf8' });

describe('the Pages build steps, run here', () => {
  it("reads pages.yml's build job in order: actions skipped, run steps with their env", () => {
    const steps = parseJobSteps(readFileSync(PAGES_WORKFLOW, 'utf8'), 'build');
    expect(steps.map((s) => s.uses ?? s.run?.trim().split('\n')[0])).toEqual([
      'actions/checkout@v6',
      'actions/setup-node@v6',
      'npm ci',
      'npm run data',
      'actions/setup-python@v6',
      'bash scripts/setup-python.sh',
      'npm run models',
      "repo='${{ github.event.repository.name }}'",
      'npm run build',
      'test -f dist/.nojekyll',
      'actions/configure-pages@v6',
      'actions/upload-pages-artifact@v4',
    ]);
    const build = steps.find((s) => s.run === 'npm run build\n');
    expect(build?.env).toEqual({
      MEMLENS_BASE: '${{ steps.base.outputs.base }}',
      MEMLENS_REDISTRIBUTABLE_ONLY: '1',
      MEMLENS_COI: 'sw',
      MEMLENS_MAX_FILE_MB: '100',
    });
    expect(steps.find((s) => s.id === 'base')?.run).toContain('>> "$GITHUB_OUTPUT"');
  });

  it('fills the expressions it knows and refuses the others', () => {
    const outputs = new Map([['base.base', '/memlens/']]);
    expect(expand('${{ steps.base.outputs.base }}', outputs, 'memlens')).toBe('/memlens/');
    expect(expand("'${{ github.event.repository.name }}'", outputs, 'r')).toBe("'r'");
    expect(() => expand('${{ secrets.TOKEN }}', outputs, 'r')).toThrow(
      'cannot fill ${{ secrets.TOKEN }}',
    );
  });

  it('names a step it cannot read by file and line', () => {
    const text = 'jobs:\n  build:\n    steps:\n      - run: ok\n        ???\n';
    expect(() => parseJobSteps(text, 'build')).toThrow('pages.yml:5: cannot read "???"');
  });

  it('npm run pages:offline -- --dry-run lists every step; --help exits 0; a bad option exits 2', () => {
    const dry = npm(['--dry-run']);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('[pages.yml:');
    expect(dry.stdout).toContain('MEMLENS_MAX_FILE_MB=100 npm run build');
    expect(npm(['--help']).status).toBe(0);
    expect(npm(['--bogus']).status).toBe(2);
  });
});
