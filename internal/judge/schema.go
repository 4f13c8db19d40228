package judge

// Schema is the JSON Schema of an answer to n criteria, sent as the
// request's strict structured-output format: every key present, nothing
// else, each verdict one of three words.
func Schema(n int) map[string]any {
	props := map[string]any{}
	required := make([]string, n)
	for i := range n {
		required[i] = key(i)
		props[key(i)] = map[string]any{
			"type": "object", "additionalProperties": false, "required": []string{"verdict", "reasoning"},
			"properties": map[string]any{
				"verdict":   map[string]any{"type": "string", "enum": []string{True, False, Inconclusive}},
				"reasoning": map[string]any{"type": "string"},
			},
		}
	}
	return map[string]any{
		"type": "object", "additionalProperties": false, "required": []string{"verdicts"},
		"properties": map[string]any{
			"verdicts": map[string]any{"type": "object", "additionalProperties": false, "required": required, "properties": props},
		},
	}
}
