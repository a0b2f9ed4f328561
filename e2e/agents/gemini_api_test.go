//go:build heavy

package agents

import (
	"encoding/json"
	"net/http"
	"strings"
)

// geminiAPI is the Gemini API as Gemini CLI uses it:
// POST /v1beta/models/MODEL:streamGenerateContent?alt=sse, and
// :generateContent for its side checks (which want JSON).
func geminiAPI(m *mock) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, method, _ := strings.Cut(r.URL.Path, ":")
		if r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		if method == "countTokens" {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"totalTokens":100}`))
			return
		}
		var req struct {
			Contents []struct {
				Role  string
				Parts []struct {
					FunctionResponse *struct {
						Name     string
						Response json.RawMessage
					}
				}
			}
			Tools []struct {
				FunctionDeclarations []struct {
					Name                 string
					Parameters           json.RawMessage
					ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
				}
			}
			GenerationConfig struct {
				ResponseMimeType string
			}
		}
		if !decode(w, r, &req) {
			return
		}
		var names []string
		for _, tool := range req.Tools {
			for _, f := range tool.FunctionDeclarations {
				names = append(names, f.Name)
				if f.Name == m.call.Name {
					schema := f.ParametersJSONSchema
					if schema == nil {
						schema = f.Parameters
					}
					m.offered(schema)
				}
			}
		}
		m.note("%s", method)
		m.tools(names)
		// The result of each call is recorded once: the last of the
		// function responses, when there are more than were recorded.
		var responses []json.RawMessage
		for _, c := range req.Contents {
			for _, part := range c.Parts {
				if fr := part.FunctionResponse; fr != nil && fr.Name == m.call.Name {
					responses = append(responses, fr.Response)
				}
			}
		}
		if n := len(responses); n > 0 && n > len(m.Results()) {
			text, isErr := geminiResult(responses[n-1])
			if next, _, more := m.record(text, isErr); more {
				geminiReply(w, method, map[string]any{"functionCall": map[string]any{"name": next.Name, "args": next.Args}})
				return
			}
			geminiReply(w, method, map[string]any{"text": finalText})
			return
		}
		for _, name := range names {
			if name == m.call.Name && m.calling() {
				geminiReply(w, method, map[string]any{"functionCall": map[string]any{"name": m.call.Name, "args": m.call.Args}})
				return
			}
		}
		if req.GenerationConfig.ResponseMimeType == "application/json" {
			// Gemini CLI's own checks (who speaks next, which model to use)
			// read these fields.
			geminiReply(w, method, map[string]any{"text": `{"reasoning":"The task is done.","next_speaker":"user","model_choice":"flash","complexity_reasoning":"simple","complexity_score":10}`})
			return
		}
		geminiReply(w, method, map[string]any{"text": "OK"})
	})
}

// geminiResult is the text of a function response: its output, or its
// error, else the whole response.
func geminiResult(raw json.RawMessage) (string, bool) {
	var r map[string]any
	if json.Unmarshal(raw, &r) == nil && len(r) == 1 {
		if s, ok := r["output"].(string); ok {
			return s, false
		}
		if s, ok := r["error"].(string); ok {
			return s, true
		}
	}
	return string(raw), false
}

// geminiReply answers with one part, streamed or not.
func geminiReply(w http.ResponseWriter, method string, part map[string]any) {
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-mock",
	}
	if method == "streamGenerateContent" {
		newSSE(w).send("", resp)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}
