//go:build heavy

package agents

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

// anthropicAPI is the Anthropic Messages API as Claude Code uses it:
// POST /v1/messages, streamed as server-sent events.
func anthropicAPI(m *mock) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Tools []struct {
				Name        string
				InputSchema json.RawMessage `json:"input_schema"`
			}
			Messages []struct {
				Role    string
				Content json.RawMessage
			}
		}
		if !decode(w, r, &req) {
			return
		}
		var names []string
		for _, tool := range req.Tools {
			names = append(names, tool.Name)
		}
		m.tools(names)
		if res, isErr, ok := anthropicResult(req.Messages, m.pending()); ok {
			if next, id, more := m.record(res, isErr); more {
				anthropicToolUse(w, id, next)
				return
			}
			anthropicText(w, finalText)
			return
		}
		for _, tool := range req.Tools {
			if tool.Name == m.call.Name {
				m.offered(tool.InputSchema)
			}
			if tool.Name == m.call.Name && m.calling() {
				anthropicToolUse(w, m.callID, m.call)
				return
			}
		}
		// Claude Code defers MCP tools behind its ToolSearch tool: the model
		// loads the tool first, as a model does.
		if slices.Contains(names, "ToolSearch") && !slices.Contains(names, m.call.Name) && m.Sent().IsZero() && !searched(req.Messages) {
			anthropicToolUse(w, "call_search_1", toolCall{Name: "ToolSearch", Args: map[string]any{"query": "select:" + m.call.Name, "max_results": 1}})
			return
		}
		anthropicText(w, "OK")
	})
	mux.HandleFunc("POST /v1/messages/count_tokens", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"input_tokens":100}`))
	})
	return mux
}

// anthropicResult finds the result of the scripted call in the messages
// since the model's last: the last holds it, or one before it, where
// Claude Code adds a system message of its own after the result (the
// deferred tools it offers, such as askuser's approve tool).
func anthropicResult(msgs []struct {
	Role    string
	Content json.RawMessage
}, id string) (string, bool, bool) {
	for i := len(msgs) - 1; i >= 0 && msgs[i].Role != "assistant"; i-- {
		var blocks []struct {
			Type      string
			ToolUseID string `json:"tool_use_id"`
			Content   json.RawMessage
			IsError   bool `json:"is_error"`
		}
		if json.Unmarshal(msgs[i].Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" && b.ToolUseID == id {
				return textOf(b.Content), b.IsError, true
			}
		}
	}
	return "", false, false
}

func anthropicStart(s sse) {
	s.send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_mock", "type": "message", "role": "assistant", "model": "claude-mock",
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 1},
	}})
}

func anthropicStop(s sse, reason string) {
	s.send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": reason, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 5}})
	s.send("message_stop", map[string]any{"type": "message_stop"})
}

func anthropicText(w http.ResponseWriter, text string) {
	s := newSSE(w)
	anthropicStart(s)
	s.send("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "text", "text": ""}})
	s.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
		"delta": map[string]any{"type": "text_delta", "text": text}})
	s.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	anthropicStop(s, "end_turn")
}

// searched reports whether the ToolSearch call was made already.
func searched(msgs []struct {
	Role    string
	Content json.RawMessage
}) bool {
	for _, msg := range msgs {
		if strings.Contains(string(msg.Content), "call_search_1") {
			return true
		}
	}
	return false
}

func anthropicToolUse(w http.ResponseWriter, id string, call toolCall) {
	s := newSSE(w)
	anthropicStart(s)
	s.send("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "tool_use", "id": id, "name": call.Name, "input": map[string]any{}}})
	s.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
		"delta": map[string]any{"type": "input_json_delta", "partial_json": call.argsJSON()}})
	s.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	anthropicStop(s, "tool_use")
}
