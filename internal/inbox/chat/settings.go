package chat

import (
	"fmt"
	"strings"
)

// Settings are the chat that the inbox is answered in, as askuser's
// settings give them: which service, and the service's own.
type Settings struct {
	// Service is one of Services.
	Service  string
	Telegram TelegramOptions
	Matrix   MatrixOptions
	// People are the service's IDs of those who may answer: Telegram
	// user IDs, Matrix user IDs. None, for Telegram, is the person whose
	// own chat with the bot Telegram.Chat is.
	People []string
}

// Services are the chat services, by the names the settings give them.
var Services = []string{"telegram", "matrix"}

// Open returns the service that s names, the ID of its room, and those
// who may answer there; warn is told of what goes wrong while it runs,
// which it tries again.
func (s Settings) Open(warn func(error)) (Service, string, []string, error) {
	switch s.Service {
	case "telegram":
		t, err := NewTelegram(s.Telegram, warn)
		if err != nil {
			return nil, "", nil, err
		}
		people := s.People
		if len(people) == 0 {
			people = []string{t.Room()}
		}
		return t, t.Room(), people, nil
	case "matrix":
		m, err := NewMatrix(s.Matrix, warn)
		if err != nil {
			return nil, "", nil, err
		}
		return m, s.Matrix.Room, s.People, nil
	}
	return nil, "", nil, fmt.Errorf("unknown chat service %q: use one of %s", s.Service, strings.Join(Services, ", "))
}
