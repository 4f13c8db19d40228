// Package oaiwire holds the pieces of the OpenAI-compatible API's wire
// format that more than one package reads: the usage a response reports
// and the message of an error body. The model client (internal/model),
// the model gateway (internal/gateway) and the openai target
// (internal/openai) read them here, so each shape is read one way.
package oaiwire
