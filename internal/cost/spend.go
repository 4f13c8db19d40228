package cost

import (
	"encoding/json"
	"math"
	"slices"
)

// Cost sources: where a Usage's CostUSD came from.
const (
	// FromPrice: its tokens times the price table's entry for its model.
	FromPrice = "price"
	// FromSource: the source reported the cost itself (the Agent SDK's
	// total_cost_usd), and it is used as reported.
	FromSource = "reported"
)

// Usage is what one provider's model used within a scope, as reported.
type Usage struct {
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	Tokens   Tokens `json:"tokens"`
	// CostUSD is what the tokens cost, nil when unknown: the model has no
	// price and the source reported no cost. CostFrom says where it came
	// from (FromPrice, FromSource).
	CostUSD  *float64 `json:"cost_usd,omitempty"`
	CostFrom string   `json:"cost_from,omitempty"`
}

// Label names the model for people: "openai/gpt-4o-mini", "gpt-4o-mini",
// or "unnamed model" when the source named neither.
func (u Usage) Label() string {
	switch {
	case u.Provider != "" && u.Model != "":
		return u.Provider + "/" + u.Model
	case u.Model != "":
		return u.Model
	case u.Provider != "":
		return u.Provider + " (model not named)"
	}
	return "unnamed model"
}

// Spend is what a scope — a run, a turn, an attempt, a test, a whole run
// of the suite — used: one Usage per provider and model, in the order they
// were first reported, and how many of its parts (runs, messages) reported
// usage and how many did not. A nil *Spend is a scope with no usage
// reported at all: unknown, not zero.
type Spend struct {
	Models []Usage `json:"models"`
	// Reported and Unreported count the parts that did and did not report
	// usage; with Unreported > 0 the spend is partial: its sums are lower
	// bounds.
	Reported   int `json:"reported"`
	Unreported int `json:"unreported,omitempty"`
}

// Partial reports whether some part of the scope reported no usage.
func (s *Spend) Partial() bool { return s != nil && s.Unreported > 0 }

// Add records one part that reported usage us (several models at once, as
// an AG-UI run's usage list does); usages of the same provider and model
// are summed. An empty us is a part that reported using nothing.
func (s *Spend) Add(us ...Usage) {
	s.Reported++
	s.addModels(us)
}

func (s *Spend) addModels(us []Usage) {
	for _, u := range us {
		i := slices.IndexFunc(s.Models, func(m Usage) bool { return m.Provider == u.Provider && m.Model == u.Model })
		if i < 0 {
			u.CostUSD = clonef(u.CostUSD)
			s.Models = append(s.Models, u)
			continue
		}
		m := &s.Models[i]
		m.Tokens = m.Tokens.Sum(u.Tokens)
		m.CostUSD, m.CostFrom = sumCost(m.CostUSD, m.CostFrom, u.CostUSD, u.CostFrom)
	}
}

// Missing records one part that reported no usage.
func (s *Spend) Missing() { s.Unreported++ }

// Merge adds every part of o to s. Merging a nil o (a scope with no usage
// reported) counts as parts unreported: n of them.
func (s *Spend) Merge(o *Spend, n int) {
	if o == nil {
		s.Unreported += n
		return
	}
	s.Reported += o.Reported
	s.Unreported += o.Unreported
	s.addModels(o.Models)
}

// Sum is the spend of several scopes (each nil when it reported nothing):
// nil when none reported usage.
func Sum(parts ...*Spend) *Spend {
	var out *Spend
	for _, p := range parts {
		if p == nil {
			continue
		}
		if out == nil {
			out = &Spend{}
		}
		out.Merge(p, 0)
	}
	if out != nil {
		for _, p := range parts {
			if p == nil {
				out.Unreported++
			}
		}
	}
	return out
}

// Tokens is the spend's tokens over every model (a count known when every
// model reported it).
func (s *Spend) Tokens() Tokens {
	var t Tokens
	if s == nil {
		return t
	}
	for i, m := range s.Models {
		if i == 0 {
			t = m.Tokens
			continue
		}
		t = t.Sum(m.Tokens)
	}
	if len(s.Models) == 0 && s.Reported > 0 {
		// Parts that reported using nothing.
		for f := range numFields {
			t.Set(f, 0)
		}
	}
	return t
}

// TotalTokens is the spend's total tokens and whether it is known: known
// when the spend is not nil and every model's total is; a partial spend's
// total is a lower bound (Partial).
func (s *Spend) TotalTokens() (int64, bool) { return s.Tokens().TotalTokens() }

// CostUSD is what the spend cost and whether that is known: known when
// every model's cost is and no part went unreported.
func (s *Spend) CostUSD() (float64, bool) {
	if s == nil || s.Unreported > 0 {
		return 0, false
	}
	var sum float64
	for _, m := range s.Models {
		if m.CostUSD == nil {
			return 0, false
		}
		sum += *m.CostUSD
	}
	return RoundUSD(sum), true
}

// RoundUSD rounds a sum of costs to 1e-10 USD, far below what one token
// of any model costs, so that a sum reads as its parts add up (0.0033315,
// not 0.0033315000000000003) in summary.json.
func RoundUSD(v float64) float64 { return math.Round(v*1e10) / 1e10 }

// Clone returns a deep copy.
func (s *Spend) Clone() *Spend {
	if s == nil {
		return nil
	}
	c := *s
	c.Models = slices.Clone(s.Models)
	for i := range c.Models {
		c.Models[i].CostUSD = clonef(c.Models[i].CostUSD)
	}
	return &c
}

// spendJSON is a Spend as reports write it: its parts, and the totals
// they make, so a reader of summary.json need not add them up.
type spendJSON struct {
	Tokens     Tokens   `json:"tokens"`
	CostUSD    *float64 `json:"cost_usd,omitempty"`
	Partial    bool     `json:"partial,omitempty"`
	Models     []Usage  `json:"models"`
	Reported   int      `json:"reported"`
	Unreported int      `json:"unreported,omitempty"`
}

// MarshalJSON writes the spend with its totals.
func (s Spend) MarshalJSON() ([]byte, error) {
	j := spendJSON{Tokens: s.Tokens(), Partial: s.Unreported > 0, Models: s.Models, Reported: s.Reported, Unreported: s.Unreported}
	if j.Models == nil {
		j.Models = []Usage{}
	}
	if c, ok := s.CostUSD(); ok {
		j.CostUSD = &c
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a spend back; its totals are derived again.
func (s *Spend) UnmarshalJSON(b []byte) error {
	var j spendJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = Spend{Models: j.Models, Reported: j.Reported, Unreported: j.Unreported}
	if len(s.Models) == 0 {
		s.Models = nil // as a Spend that was never given a model
	}
	return nil
}

func sumCost(a *float64, af string, b *float64, bf string) (*float64, string) {
	if a == nil || b == nil {
		return nil, ""
	}
	v := RoundUSD(*a + *b)
	from := af
	if af != bf {
		from = FromSource // a mix: some of it is as reported
	}
	return &v, from
}

func clonef(p *float64) *float64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
