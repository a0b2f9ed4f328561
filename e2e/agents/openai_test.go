//go:build heavy

package agents

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// responsesAPI is the OpenAI Responses API as Codex uses it:
// POST .../responses, streamed as server-sent events.
func responsesAPI(m *mock) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Tools []struct {
				Type, Name string
				Parameters json.RawMessage
				Tools      []struct {
					Name       string
					Parameters json.RawMessage
				}
			}
			Input []struct {
				Type   string
				CallID string `json:"call_id"`
				Output json.RawMessage
			}
		}
		if !decode(w, r, &req) {
			return
		}
		var names []string
		for _, tool := range req.Tools {
			names = append(names, tool.Type+":"+tool.Name)
		}
		m.tools(names)
		for _, item := range req.Input {
			if strings.HasSuffix(item.Type, "_call_output") && item.CallID == m.callID {
				m.record(textOf(item.Output), false)
				responsesReply(w, map[string]any{"type": "message", "role": "assistant", "id": "msg_final",
					"content": []any{map[string]any{"type": "output_text", "text": finalText}}})
				return
			}
		}
		for _, tool := range req.Tools {
			offered := tool.Name == m.call.Name
			if offered {
				m.offered(tool.Parameters)
			}
			// Codex offers MCP tools in a namespace per server.
			if ns, name, ok := strings.Cut(m.call.Name, "/"); ok && tool.Type == "namespace" && tool.Name == ns {
				for _, sub := range tool.Tools {
					if sub.Name == name {
						offered = true
						m.offered(sub.Parameters)
					}
				}
			}
			if offered && m.calling() {
				responsesReply(w, responsesCall(m))
				return
			}
		}
		responsesReply(w, map[string]any{"type": "message", "role": "assistant", "id": "msg_ok",
			"content": []any{map[string]any{"type": "output_text", "text": "OK"}}})
	})
}

// responsesCall is the function call item of the scripted call; a name
// NAMESPACE/NAME calls a tool in a namespace.
func responsesCall(m *mock) map[string]any {
	item := map[string]any{"type": "function_call", "id": "fc_1", "call_id": m.callID,
		"name": m.call.Name, "arguments": m.call.argsJSON()}
	if ns, name, ok := strings.Cut(m.call.Name, "/"); ok {
		item["namespace"], item["name"] = ns, name
	}
	return item
}

// responsesReply streams a response of one output item.
func responsesReply(w http.ResponseWriter, item map[string]any) {
	s := newSSE(w)
	s.send("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_mock"}})
	s.send("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	s.send("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	s.send("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": "resp_mock", "output": []any{item},
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15},
	}})
}

// chatAPI is the OpenAI Chat Completions API as OpenAI-compatible clients
// (OpenCode's) use it: POST .../chat/completions, streamed.
func chatAPI(m *mock) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Tools []struct {
				Function struct {
					Name       string
					Parameters json.RawMessage
				}
			}
			Messages []struct {
				Role       string
				ToolCallID string `json:"tool_call_id"`
				Content    json.RawMessage
			}
		}
		if !decode(w, r, &req) {
			return
		}
		var names []string
		for _, tool := range req.Tools {
			names = append(names, tool.Function.Name)
			if tool.Function.Name == m.call.Name {
				m.offered(tool.Function.Parameters)
			}
		}
		m.tools(names)
		for _, msg := range req.Messages {
			if msg.Role == "tool" && msg.ToolCallID == "call_search_1" {
				m.note("tool_search gave %.300s", textOf(msg.Content))
			}
			if msg.Role == "tool" && msg.ToolCallID == m.pending() {
				if next, id, more := m.record(textOf(msg.Content), false); more {
					chatReply(w, map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
						"index": 0, "id": id, "type": "function",
						"function": map[string]any{"name": next.Name, "arguments": next.argsJSON()},
					}}}, "tool_calls")
					return
				}
				chatReply(w, map[string]any{"role": "assistant", "content": finalText}, "stop")
				return
			}
		}
		if slices.Contains(names, m.call.Name) && m.calling() {
			chatReply(w, map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
				"index": 0, "id": m.callID, "type": "function",
				"function": map[string]any{"name": m.call.Name, "arguments": m.call.argsJSON()},
			}}}, "tool_calls")
			return
		}
		// Qwen Code defers MCP tools, and headless runs' shell tool, behind
		// its tool_search tool: the model loads the tool first, as a model
		// does.
		if slices.Contains(names, "tool_search") && !slices.Contains(names, m.call.target()) && m.Sent().IsZero() && !chatSearched(req.Messages) {
			chatReply(w, map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
				"index": 0, "id": "call_search_1", "type": "function",
				"function": map[string]any{"name": "tool_search", "arguments": `{"query":"select:` + m.call.target() + `"}`},
			}}}, "tool_calls")
			return
		}
		chatReply(w, map[string]any{"role": "assistant", "content": "OK"}, "stop")
	})
}

// chatSearched reports whether the tool_search call was made already.
func chatSearched(msgs []struct {
	Role       string
	ToolCallID string `json:"tool_call_id"`
	Content    json.RawMessage
}) bool {
	return slices.ContainsFunc(msgs, func(msg struct {
		Role       string
		ToolCallID string `json:"tool_call_id"`
		Content    json.RawMessage
	}) bool {
		return msg.ToolCallID == "call_search_1"
	})
}

// chatReply streams one delta and the reason it ends.
func chatReply(w http.ResponseWriter, delta map[string]any, finish string) {
	s := newSSE(w)
	chunk := func(choice map[string]any, usage any) map[string]any {
		return map[string]any{"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 1,
			"model": "mock-model", "choices": []any{choice}, "usage": usage}
	}
	s.send("", chunk(map[string]any{"index": 0, "delta": delta, "finish_reason": nil}, nil))
	s.send("", chunk(map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish},
		map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}))
	fmt.Fprint(w, "data: [DONE]\n\n")
}
