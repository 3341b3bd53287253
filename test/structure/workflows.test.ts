// `npm test` lints every GitHub Actions workflow with actionlint from the reference environment
// (scripts/setup-python.sh installs it), so a broken workflow shows before a push.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const actionlint = join(root, '.venv/bin/actionlint');
const workflows = readdirSync(join(root, '.github/workflows'))
  .filter((f) => /\.ya?ml$/.test(f))
  .map((f) => join('.github/workflows', f));

function lint(files: string[]): { status: number | null; out: string } {
  const res = spawnSync(actionlint, ['-no-color', ...files], { cwd: root, encoding: 'utf8' });
  return { status: res.status, out: `${res.stdout}${res.stderr}` };
}

describe('GitHub Actions workflows', () => {
  it('has actionlint from the reference environment', () => {
    expect(
      existsSync(actionlint),
      `${actionlint} is missing: run bash scripts/setup-python.sh`,
    ).toBe(true);
  });

  it('lints .github/workflows/*.yml clean', () => {
    expect(workflows).toEqual(
      expect.arrayContaining([
        '.github/workflows/pages.yml',
        '.github/workflows/test.yml',
        '.github/workflows/verify.yml',
      ]),
    );
    const res = lint(workflows);
    expect(res.out).toBe('');
    expect(res.status).toBe(0);
  });

  it('fails on a workflow with an error, naming the file and line (the lint can fail)', () => {
    const bad = join(root, 'test/fixtures/workflows/broken.yml');
    const res = lint([bad]);
    expect(res.status).toBe(1);
    expect(res.out).toMatch(/broken\.yml:9:\d+: .*"github\.nope"|property "nope" is not defined/);
  });

  it("the deploy waits for the BGE verify job, and the test workflow runs README's test command", () => {
    const pages = readFileSync(join(root, '.github/workflows/pages.yml'), 'utf8');
    expect(pages).toMatch(/verify:\n\s+uses: \.\/\.github\/workflows\/verify\.yml/);
    expect(pages).toMatch(/build:\n\s+needs: verify/);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('npm test');
    expect(readFileSync(join(root, '.github/workflows/test.yml'), 'utf8')).toMatch(
      /- run: npm test\n/,
    );
  });
});
