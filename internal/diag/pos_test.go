package diag

import "testing"

func TestDiagnosticsSorted(t *testing.T) {
	ds := Diagnostics{
		{Pos{"b", 1, 1}, "x"}, {Pos{"a", 2, 1}, "y"}, {Pos{"a", 1, 9}, "z"}, {Pos{"a", 1, 9}, "z"}, {Pos{"a", 1, 2}, "w"},
	}
	if got, want := ds.Error(), "a:1:2: w\na:1:9: z\na:2:1: y\nb:1:1: x"; got != want {
		t.Errorf("Error() =\n%s\nwant\n%s", got, want)
	}
}
