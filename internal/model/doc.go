// Package model is Ananke's client for the one model endpoint a project
// configures: an OpenAI-compatible chat completions API (OpenAI, Ollama,
// vLLM, LiteLLM, an Azure-compatible proxy, or a fake in CI). The user
// simulator, the judge assertions and test generation all talk to the model
// through it, so that one place decides what is sent, where, how failures are
// retried and reported, and what is cached.
//
// Requests go to the configured endpoint and nowhere else: the client reads
// no OPENAI_* environment variable, redirects are refused, and the package's own HTTP client ignores proxy
// environment variables (internal/cli passes a client when a proxy is wanted).
//
// Failures are *Error values whose Kind says what went wrong (unreachable,
// unauthorized, rate limited, …) and whose message names the model and the
// endpoint. The API key never appears in an error, even when the endpoint
// echoes it back.
package model
