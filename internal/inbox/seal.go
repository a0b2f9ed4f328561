package inbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"filippo.io/age"
)

// IdentityFile is where askuser inbox keeps its age identity, under the
// user's configuration directory: made once, kept, so that the address it
// prints stays the same from one start to the next.
const IdentityFile = "askuser/inbox.age"

// LoadIdentity returns the inbox's age identity from path, made (0600, in
// a directory made 0700) when there is none yet; created says so.
func LoadIdentity(path string) (id *age.X25519Identity, created bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		id, err = createIdentity(path)
		return id, err == nil, err
	}
	if err != nil {
		return nil, false, fmt.Errorf("read the inbox's identity: %w", err)
	}
	ids, err := age.ParseIdentities(bytes.NewReader(b))
	if err != nil {
		return nil, false, fmt.Errorf("the inbox's identity %s is not an age identity (%v): move it away, and a new one is made", path, err)
	}
	for _, i := range ids {
		if x, ok := i.(*age.X25519Identity); ok {
			return x, false, nil
		}
	}
	return nil, false, fmt.Errorf("the inbox's identity %s holds no X25519 identity (AGE-SECRET-KEY-1...): move it away, and a new one is made", path)
}

func createIdentity(path string) (*age.X25519Identity, error) {
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("make the directory of the inbox's identity: %w", err)
	}
	text := fmt.Sprintf("# askuser inbox: the identity that opens the questions sealed to it\n# created: %s\n# public key: %s\n%s\n",
		time.Now().UTC().Format(time.RFC3339), id.Recipient(), id)
	// O_EXCL: two inboxes that start at once keep the same one.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		id, _, err := LoadIdentity(path)
		return id, err
	}
	if err != nil {
		return nil, fmt.Errorf("make the inbox's identity: %w", err)
	}
	if _, err := io.WriteString(f, text); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("write the inbox's identity: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("write the inbox's identity: %w", err)
	}
	return id, nil
}

// ageHeader begins every message age seals (its binary format).
var ageHeader = []byte("age-encryption.org/v1\n")

// seal encrypts plain to every recipient given; with none, plain goes as
// it is (the address allowed that: see NATSAddr.sealRequired).
func seal(plain []byte, to ...age.Recipient) ([]byte, error) {
	if len(to) == 0 {
		return plain, nil
	}
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, to...)
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	if _, err := w.Write(plain); err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	return buf.Bytes(), nil
}

// open decrypts what seal sealed, with id, and returns what was not sealed
// as it is; sealed says which.
func open(msg []byte, id age.Identity, limit int64) (plain []byte, sealed bool, err error) {
	if !bytes.HasPrefix(msg, ageHeader) {
		return msg, false, nil
	}
	r, err := age.Decrypt(bytes.NewReader(msg), id)
	if err != nil {
		return nil, true, err
	}
	plain, err = io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, true, err
	}
	if int64(len(plain)) > limit {
		return nil, true, errors.New("too large")
	}
	return plain, true, nil
}

// recipients parses the recipients given, skipping empty ones.
func recipients(rs ...string) ([]age.Recipient, error) {
	var out []age.Recipient
	for _, r := range rs {
		if r == "" {
			continue
		}
		x, err := age.ParseX25519Recipient(r)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}
