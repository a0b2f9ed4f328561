// Checks a tool definition's input schema as MCP clients read it. Run by
// e2e/mcp_node_test.go as
//
//     node schema-check.mjs TOOL.json
//
// It compiles the schema with Ajv in strict mode, for draft-07 (Gemini
// CLI's default) and for 2020-12, and records every warning Ajv logs
// (strict: 'log', so that every problem is seen, not only the first). It
// compiles every "pattern" as a JavaScript RegExp with and without the u
// flag, as it is and after the normalisation Claude Code applies to tool
// schemas (space characters U+00A0…U+3000 turned into spaces, characters
// that draw nothing removed). It prints what it found as one JSON object.
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';

const def = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const schema = def.inputSchema ?? def.input_schema ?? def.parameters ?? def.function?.parameters;
const out = { warnings: [], errors: [], patterns: [] };

for (const [name, Klass] of [['draft-07', Ajv], ['2020-12', Ajv2020]]) {
  const logger = {
    log: () => {},
    warn: (...args) => out.warnings.push(`${name}: ${args.join(' ')}`),
    error: (...args) => out.errors.push(`${name}: ${args.join(' ')}`),
  };
  try {
    new Klass({ strict: 'log', logger, allErrors: true }).compile(schema);
  } catch (e) {
    out.errors.push(`${name}: ${e.message}`);
  }
}

const spaces = /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/g;
const invisible = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]/g;
const walk = (node) => {
  if (Array.isArray(node)) {
    node.forEach(walk);
  } else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'pattern' && typeof v === 'string') {
        const normalised = v.replace(spaces, ' ').replace(invisible, '');
        const p = { pattern: v, survives: normalised === v, compiles: [] };
        for (const source of [v, normalised]) {
          for (const flags of ['', 'u']) {
            try {
              new RegExp(source, flags);
            } catch (e) {
              p.compiles.push(`${flags || 'no flag'}: ${e.message}`);
            }
          }
        }
        out.patterns.push(p);
      } else {
        walk(v);
      }
    }
  }
};
walk(schema);
process.stdout.write(JSON.stringify(out) + '\n');
