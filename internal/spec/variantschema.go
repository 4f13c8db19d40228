package spec

import (
	"maps"

	"github.com/ananke/action/internal/decode"
)

// variantsSchema is the schema of the config's variants:. A variant's
// target holds any target fields, none required: they are merged over the
// config's target, which the loader checks whole.
func variantsSchema(target decode.Obj) decode.Obj {
	over := partial(target).(decode.Obj)
	over["description"] = "Target fields merged over the config's target: mappings key by key, lists and values replaced. The type cannot change."
	variant := decode.Object("One variant: the suite run against another agent, model or prompt (docs/variants.md).", variantFields, decode.Obj{
		"name": decode.Obj{"type": "string", "pattern": `^[A-Za-z0-9._-]+$`, "not": decode.Obj{"enum": reservedVariantNames},
			"description": "The variant's name (letters, digits, - _ .): --variant NAME runs it; reports qualify test ids as id@NAME."},
		"target": over,
		"gateway": decode.Object("The model gateway for this variant (the config must have gateway:).", variantGatewayFields, decode.Obj{
			"model": decode.Obj{"type": "string", "minLength": 1, "description": "The model the gateway asks its upstream for, in place of the one each request names."},
		}, "model"),
		"runs":          decode.Ref("runs"),
		"min_pass_rate": decode.Ref("min_pass_rate"),
		"retries":       decode.Ref("retries"),
		"adaptive":      decode.Ref("adaptive"),
	}, "name")
	return decode.Obj{"type": "array", "minItems": 1, "items": variant,
		"description": "Named variants of the target; ananke run --variant NAME (or --variants all) runs the suite once per variant and compares them (docs/variants.md)."}
}

// partial is schema s with nothing required: no required fields and no
// allOf cases (which require fields by type), at any depth.
func partial(s any) any {
	switch v := s.(type) {
	case decode.Obj:
		out := maps.Clone(v)
		delete(out, "required")
		delete(out, "allOf")
		for k, sub := range out {
			out[k] = partial(sub)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, sub := range v {
			out[i] = partial(sub)
		}
		return out
	}
	return s
}
