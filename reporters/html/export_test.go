package html

// The page's parts, for tests that check the page around the data.
func StyleForTest() string  { return styleCSS }
func ScriptForTest() string { return appJS }
func PageForTest() string   { return pageHTML }
