package githubtest

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// GitHub's list pagination: per_page defaults to 30 and is capped at 100.
// https://docs.github.com/rest/using-the-rest-api/using-pagination-in-the-rest-api
const (
	defaultPerPage = 30
	maxPerPage     = 100
)

// paginate picks the page r asks for out of n items: it returns the slice
// bounds and a Link header with the prev, next, last and first pages, in
// GitHub's order, which go-github parses into Response.NextPage etc.
func paginate(r *http.Request, n int) (start, end int, header http.Header) {
	q := r.URL.Query()
	perPage := atoiOr(q.Get("per_page"), defaultPerPage)
	if perPage < 1 {
		perPage = defaultPerPage
	}
	perPage = min(perPage, maxPerPage)
	page := max(atoiOr(q.Get("page"), 1), 1)
	last := max((n+perPage-1)/perPage, 1)

	start = min((page-1)*perPage, n)
	end = min(start+perPage, n)

	link := func(p int, rel string) string {
		q.Set("page", strconv.Itoa(p))
		q.Set("per_page", strconv.Itoa(perPage))
		return fmt.Sprintf("<%s%s?%s>; rel=%q", baseURL(r), r.URL.Path, q.Encode(), rel)
	}
	var links []string
	if page > 1 {
		links = append(links, link(min(page-1, last), "prev"))
	}
	if page < last {
		links = append(links, link(page+1, "next"), link(last, "last"))
	}
	if page > 1 {
		links = append(links, link(1, "first"))
	}
	header = make(http.Header)
	if len(links) > 0 {
		header.Set("Link", strings.Join(links, ", "))
	}
	return start, end, header
}

func atoiOr(s string, def int) int {
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return def // the schema checked the type
	}
	return n
}
