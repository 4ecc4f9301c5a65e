/** Which server answers mean "this server cannot constrain replies to a schema", and which do not. */
import { isSchemaRejection } from '../../../src/background/llm/errors';

test.each([
  [400, "Unsupported response_format type 'json_schema'"],
  [400, "'response_format.type' must be 'json_schema' or 'text'"],
  [400, 'The provided JSON schema contains features not supported by xgrammar.'],
  [422, 'json_schema: field required'],
  [400, 'invalid format: a JSON schema for structured outputs is not supported'],
  [400, 'Failed to parse grammar'],
  [400, 'json: cannot unmarshal object into Go struct field ChatRequest.format of type string'],
])('%i "%s" is a rejection of the reply schema', (status, message) => {
  expect(isSchemaRejection(status, message)).toBe(true);
});

test.each([
  [400, 'This model\'s maximum context length is 8192 tokens.'],
  [400, 'registry.ollama.ai/library/gemma does not support tools'],
  [500, "Unsupported response_format type 'json_schema'"],
  [401, 'Incorrect API key provided'],
])('%i "%s" is not', (status, message) => {
  expect(isSchemaRejection(status, message)).toBe(false);
});
