// askuser mcp met by a second, independent MCP client: the reference
// TypeScript SDK's. Run by e2e/mcp_node_test.go as
//
//     node client.mjs ASKUSER QUESTIONS
//
// It starts "ASKUSER mcp" over stdio, lists the tools, calls the tool with
// QUESTIONS (a JSON file) twice, filling in the form the first time and
// declining it the second, and prints what it saw as one JSON object.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [askuser, questionsFile] = process.argv.slice(2);
const questions = JSON.parse(readFileSync(questionsFile, 'utf8'));

const client = new Client({ name: 'askuser-e2e', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
const forms = [];
let reply = 'accept';
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  forms.push(request.params);
  if (reply !== 'accept') {
    // At a person's pace: a decline sooner than a person can read the
    // form is the client's, and askuser asks another way.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    return { action: reply };
  }
  // The second option of the first question, the last and the first of
  // the second (a multi-select), text for the third, and the person's own
  // answer for the fourth.
  const props = request.params.requestedSchema.properties;
  return {
    action: 'accept',
    content: {
      q1_pick: props.q1_pick.oneOf[1].const,
      q2_pick: [props.q2_pick.items.anyOf[2].const, props.q2_pick.items.anyOf[0].const],
      q3_text: 'OrderList',
      q4_other: 'Mars',
    },
  };
});

const transport = new StdioClientTransport({ command: askuser, args: ['mcp'], stderr: 'inherit' });
await client.connect(transport);
const out = { server: client.getServerVersion() };
out.tools = (await client.listTools()).tools;
out.answered = await client.callTool({ name: 'askuser', arguments: questions });
reply = 'decline';
out.declined = await client.callTool({ name: 'askuser', arguments: questions });
out.forms = forms;
await client.close();
process.stdout.write(JSON.stringify(out) + '\n');
