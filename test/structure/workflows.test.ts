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

  it('the deploy waits for the BGE verify job', () => {
    const pages = readFileSync(join(root, '.github/workflows/pages.yml'), 'utf8');
    expect(pages).toMatch(/verify:\n\s+uses: \.\/\.github\/workflows\/verify\.yml/);
    expect(pages).toMatch(/build:\n\s+needs: verify/);
  });

  it("the test workflow runs README's test command in jobs at once: checks and unit, commands, e2e in shards", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('npm test');
    const tests = readFileSync(join(root, '.github/workflows/test.yml'), 'utf8');
    expect(tests).toMatch(/- run: npm test -- --project unit\n/);
    expect(tests).toMatch(/- run: npx vitest run --project commands\n/);
    // Every shard of the e2e project, whatever the matrix's length.
    expect(tests).toMatch(/shard: \[1(?:, \d+)+\]/);
    expect(tests).toMatch(
      /- run: npx vitest run --project e2e --shard=\$\{\{ matrix\.shard \}\}\/\$\{\{ strategy\.job-total \}\}\n/,
    );
    // Each job does .ci/run's setup first.
    const jobs = tests
      .slice(tests.indexOf('\njobs:\n'))
      .split(/\n {2}(?=[\w-]+:\n)/)
      .slice(1);
    expect(jobs).toHaveLength(3);
    for (const job of jobs) expect(job).toContain('uses: ./.github/actions/setup');
    // The projects the jobs name are all of vitest.config.ts's projects.
    const config = readFileSync(join(root, 'vitest.config.ts'), 'utf8');
    const projects = [...config.matchAll(/name: '(\w+)'/g)].map((m) => m[1]).sort();
    expect(projects).toEqual(['commands', 'e2e', 'unit']);
    expect(readFileSync(join(root, '.ci/run'), 'utf8')).toMatch(/\nnpm test\n/);
  });
});
