package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/github/artifact/artifacttest"
	"github.com/ananke/action/internal/github/githubtest"
)

// prOnMain is a pull request event into main.
const prOnMain = `{"number": 5, "pull_request": {"number": 5, "head": {"sha": "head1111"}, "base": {"ref": "main"}}}`

// Workflow runs in the fake: this run (GITHUB_RUN_ID 99, a pull request)
// and main's successful run #41, of the same workflow.
const (
	workflowID = 7
	baseRunID  = 41
)

// addCurrentRun registers this run, which BaseReport looks up to know
// its workflow.
func addCurrentRun(gh *githubtest.Server) {
	gh.AddWorkflowRun(githubtest.WorkflowRun{ID: 99, RunNumber: 42, WorkflowID: workflowID, Branch: "rain",
		Event: "pull_request", Status: "in_progress", HeadSHA: "head1111"})
}

// addBaseRun registers main's run #41 with conclusion.
func addBaseRun(gh *githubtest.Server, conclusion string) int64 {
	return gh.AddWorkflowRun(githubtest.WorkflowRun{ID: baseRunID, RunNumber: 41, WorkflowID: workflowID, Branch: "main",
		Conclusion: conclusion, HeadSHA: "abc1234def5678"})
}

// afterHeading is what a surface shows under its heading (and marker):
// the lead, or else the totals.
func afterHeading(body string) string {
	_, rest, _ := strings.Cut(body, "\n\n")
	return rest
}

// actionsRequests counts the requests to the workflow runs and artifacts
// API.
func actionsRequests(gh *githubtest.Server) int {
	n := 0
	for _, r := range gh.Requests() {
		if strings.HasPrefix(r.Operation, "actions/") {
			n++
		}
	}
	return n
}

// TestActionCompareWithBase plays a repository's life: a push to main
// uploads its report; a pull request that breaks a test finds that report
// and shows the change atop the comment, the check run and the job
// summary, and as text in the log; and a workflow that downloaded main's
// report compares with that directory.
func TestActionCompareWithBase(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := copySuite(t, "quickstart")

	// A push to main: all pass, the report is uploaded, and there is
	// nothing to compare with — one log line, no warning, no API call.
	env, _, summary := actionEnv(t, dir, "push", `{"ref": "refs/heads/main"}`, gh, art)
	env["GITHUB_RUN_ID"] = "41"
	r := run(t, dir, env, "action")
	if r.code != ExitPass {
		t.Fatalf("push: exit %d; want 0\n%s%s", r.code, r.out, r.errOut)
	}
	if strings.Contains(r.out, "::warning") || strings.Count(r.out, "No comparison: the push event has no base branch") != 1 || actionsRequests(gh) != 0 {
		t.Errorf("push: want one line saying there is no comparison, no warning and %d requests to the actions API; got\n%s", actionsRequests(gh), r.out)
	}
	if md, _ := os.ReadFile(summary); !strings.HasPrefix(afterHeading(string(md)), "| Total |") {
		t.Errorf("push: the job summary has something above the totals:\n%s", md)
	}
	arts := art.Artifacts()
	if len(arts) != 1 {
		t.Fatalf("push: %d artifacts uploaded", len(arts))
	}
	mainZip := arts[0].Data
	addBaseRun(gh, "success")
	gh.AddArtifact(baseRunID, "ananke-report", mainZip, false)
	// A newer run on main without the artifact (it did not upload) is
	// passed over.
	gh.AddWorkflowRun(githubtest.WorkflowRun{ID: 43, RunNumber: 43, WorkflowID: workflowID, Branch: "main", Conclusion: "success"})
	addCurrentRun(gh)

	// The pull request makes the weather test expect rain.
	weather := filepath.Join(dir, "weather.ananke.yaml")
	b, _ := os.ReadFile(weather)
	os.WriteFile(weather, []byte(strings.Replace(string(b), "sunny and 21°C in Paris", "rainy in Paris", 1)), 0o644)
	// Another run, another artifact store.
	env, _, summary = actionEnv(t, dir, "pull_request", prOnMain, gh, artifacttest.New(t))
	env["GITHUB_BASE_REF"] = "main"
	r = run(t, dir, env, "action")
	if r.code != ExitFail {
		t.Fatalf("pull request: exit %d; want 1\n%s%s", r.code, r.out, r.errOut)
	}
	const name = "weather in Paris uses the weather tool"
	comments, runs := gh.Comments(5), gh.CheckRuns()
	if len(comments) != 1 || len(runs) != 2 {
		t.Fatalf("%d comments, %d check runs; want 1, 2", len(comments), len(runs))
	}
	md, _ := os.ReadFile(summary)
	for surface, body := range map[string]string{"comment": comments[0].Body, "check run": runs[1].Summary, "job summary": string(md)} {
		lead := afterHeading(body)
		top, _, _ := strings.Cut(lead, "| Total |")
		if !strings.HasPrefix(lead, "**1 new failure**\n\nCompared with [run #41](https://github.com/acme/shop/actions/runs/41) on `main` (`abc1234`)") ||
			!strings.Contains(top, name) || !strings.Contains(top, "pass → fail") {
			t.Errorf("the %s does not start with the change:\n%s", surface, body)
		}
		if !strings.Contains(body, "(open `index.html` inside, or `ananke show ananke-report.zip`) · [workflow run]") {
			t.Errorf("the %s's footer does not say how to open the report:\n%s", surface, body)
		}
	}
	for _, want := range []string{"\n1 new failure\nCompared with run #41 on main (abc1234) https://github.com/acme/shop/actions/runs/41\n",
		"pass → fail  " + name + "  weather.ananke.yaml:1\n",
		"Passed over for the base report: the newest successful run on main (#43) has no artifact ananke-report\n"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("the log lacks %q:\n%s", want, r.out)
		}
	}
	if strings.Contains(r.out, "::warning") {
		t.Errorf("warnings:\n%s", r.out)
	}

	// A push elsewhere, comparing with main's report downloaded into a
	// directory: the same change.
	unzip(t, mainZip, filepath.Join(dir, "main-report"))
	env, _, _ = actionEnv(t, dir, "push", `{"ref": "refs/heads/rain"}`, gh, art)
	env["INPUT_COMPARE"], env["INPUT_UPLOAD-ARTIFACT"] = "main-report", "false"
	before := actionsRequests(gh)
	r = run(t, dir, env, "action")
	runs = gh.CheckRuns()
	if r.code != ExitFail || !strings.HasPrefix(afterHeading(runs[len(runs)-1].Summary), "**1 new failure**\n\nCompared with the report in `main-report`") {
		t.Errorf("compare: main-report: exit %d, check run:\n%s\nlog:\n%s", r.code, runs[len(runs)-1].Summary, r.out)
	}
	if !strings.Contains(r.out, "\n1 new failure\nCompared with main-report\n") || actionsRequests(gh) != before {
		t.Errorf("compare: main-report: %d requests to the actions API; log:\n%s", actionsRequests(gh)-before, r.out)
	}
}

// TestActionCompareWithoutBase: when there is no base report, or it cannot
// be had, the surfaces say so in one line and the log says why; the
// verdict and the exit code never change.
func TestActionCompareWithoutBase(t *testing.T) {
	dir := failingWorkspace(t)
	for _, tc := range []struct {
		name    string
		event   string // default prOnMain
		compare string
		setup   func(gh *githubtest.Server)
		// wantLead starts what the comment shows under its heading;
		// wantLog is in the log.
		wantLead, wantLog string
		wantActionsAPI    bool
	}{
		{
			name:           "no artifact",
			setup:          func(gh *githubtest.Server) { addBaseRun(gh, "success") },
			wantLead:       "No base report to compare with: the newest successful run on main (#\u206041) has no artifact ananke-report.\n\n| Total |",
			wantLog:        "No base report to compare with: the newest successful run on main (#41) has no artifact ananke-report.\n",
			wantActionsAPI: true,
		},
		{
			name: "expired artifact",
			setup: func(gh *githubtest.Server) {
				gh.AddArtifact(addBaseRun(gh, "success"), "ananke-report", []byte("PK"), true)
			},
			wantLead:       "No base report to compare with: artifact ananke-report of run #\u206041 expired on ",
			wantLog:        "No base report to compare with: artifact ananke-report of run #41 expired on ",
			wantActionsAPI: true,
		},
		{
			name: "no successful run",
			setup: func(gh *githubtest.Server) {
				gh.AddArtifact(addBaseRun(gh, "failure"), "ananke-report", []byte("PK"), false)
			},
			wantLead:       "No base report to compare with: no successful run of this workflow on main.\n\n| Total |",
			wantLog:        "No base report to compare with: no successful run of this workflow on main.\n",
			wantActionsAPI: true,
		},
		{
			name:           "no base branch",
			event:          prEvent,
			wantLead:       "No base report to compare with: the pull_request event has no base branch.\n\n| Total |",
			wantLog:        "No base report to compare with: the pull_request event has no base branch.\n",
			wantActionsAPI: false,
		},
		{
			name:           "no actions read",
			setup:          func(gh *githubtest.Server) { gh.Fail("actions/list-workflow-runs", 1, 403) },
			wantLead:       "No base report to compare with: the token cannot read workflow runs (the workflow's `permissions:` lack `actions: read`).\n\n| Total |",
			wantLog:        "::warning::the token cannot read this workflow's runs (permissions lack actions: read)",
			wantActionsAPI: true,
		},
		{
			name: "unreadable artifact",
			setup: func(gh *githubtest.Server) {
				gh.AddArtifact(addBaseRun(gh, "success"), "ananke-report", []byte("not a zip"), false)
			},
			wantLead:       "No comparison with the base branch: its report could not be fetched",
			wantLog:        "::warning::compare with the base branch's report: read artifact ananke-report of run #41: zip: not a valid zip file",
			wantActionsAPI: true,
		},
		{
			name:    "compare off",
			compare: "off",
			setup: func(gh *githubtest.Server) {
				gh.AddArtifact(addBaseRun(gh, "success"), "ananke-report", []byte("PK"), false)
			},
			wantLead: "| Total |",
		},
		{
			name:     "no such directory",
			compare:  "main-report",
			wantLead: "No base report to compare with: no report directory main-report.\n\n| Total |",
			wantLog:  "::warning::input compare: no report directory main-report (want auto, off or a downloaded report directory): no comparison",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gh, art := githubtest.New(t), artifacttest.New(t)
			addCurrentRun(gh)
			if tc.setup != nil {
				tc.setup(gh)
			}
			event := tc.event
			if event == "" {
				event = prOnMain
			}
			env, _, summary := actionEnv(t, dir, "pull_request", event, gh, art)
			env["INPUT_UPLOAD-ARTIFACT"] = "false"
			if tc.compare != "" {
				env["INPUT_COMPARE"] = tc.compare
			}
			r := runWall(t, dir, env, "action")
			if r.code != ExitFail {
				t.Fatalf("exit %d; want 1, as without comparing\n%s%s", r.code, r.out, r.errOut)
			}
			comments, runs := gh.Comments(5), gh.CheckRuns()
			if len(comments) != 1 || len(runs) != 1 || runs[0].Conclusion != "failure" {
				t.Fatalf("%d comments, check runs %+v", len(comments), runs)
			}
			md, _ := os.ReadFile(summary)
			for surface, body := range map[string]string{"comment": comments[0].Body, "check run": runs[0].Summary, "job summary": string(md)} {
				if !strings.HasPrefix(afterHeading(body), tc.wantLead) {
					t.Errorf("the %s does not start with %q:\n%s", surface, tc.wantLead, body)
				}
			}
			if !strings.Contains(r.out, tc.wantLog) {
				t.Errorf("the log lacks %q:\n%s", tc.wantLog, r.out)
			}
			if strings.Contains(r.out, "::warning") != strings.Contains(tc.wantLog, "::warning") {
				t.Errorf("want a warning only for a failure:\n%s", r.out)
			}
			if got := actionsRequests(gh) > 0; got != tc.wantActionsAPI {
				t.Errorf("requests to the actions API: %v; want %v", got, tc.wantActionsAPI)
			}
		})
	}
}

func TestReadCompare(t *testing.T) {
	for in, want := range map[string]string{"": "auto", "auto": "auto", "AUTO": "auto", "Off": "off", "off": "off",
		"base-report": "base-report", "reports/main": "reports/main"} {
		if got := readCompare(in); got != want {
			t.Errorf("readCompare(%q) = %q; want %q", in, got, want)
		}
	}
}
