package clock

import "time"

// Default is the default of an injected clock: named, not called.
var Default = time.Now
