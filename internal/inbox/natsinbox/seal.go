package natsinbox

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"filippo.io/age"
)

// identityFile is where askuser inbox keeps its age identity, under the
// user's configuration directory: made once, kept, so that the address it
// prints stays the same from one start to the next.
const identityFile = "askuser/inbox.age"

// loadIdentity returns the inbox's age identity from path, made (0600, in
// a directory made 0700) when there is none yet; created says so. A file
// that others may read is refused, as ssh refuses such a key: whoever can
// read it can read every question sealed to the inbox.
func loadIdentity(path string) (id *age.X25519Identity, created bool, err error) {
	b, err := readPrivate(path)
	if errors.Is(err, fs.ErrNotExist) {
		id, err = createIdentity(path)
		return id, err == nil, err
	}
	if err != nil {
		return nil, false, err
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

// readPrivate reads the identity file at path, unless others than its
// owner may read it.
func readPrivate(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read the inbox's identity: %w", err)
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read the inbox's identity: %w", err)
	}
	// Windows has no such modes: its files are the user's by their ACLs.
	if perm := fi.Mode().Perm(); perm&0o077 != 0 && runtime.GOOS != "windows" {
		return nil, fmt.Errorf("the inbox's identity %s may be read by others (mode %04o), and whoever reads it can read every question sealed to the inbox: make it private with chmod 600 %s", path, perm, path)
	}
	return io.ReadAll(io.LimitReader(f, 64<<10))
}

func createIdentity(path string) (*age.X25519Identity, error) {
	// It cannot fail: crypto/rand.Read does not.
	id, _ := age.GenerateX25519Identity()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("make the directory of the inbox's identity: %w", err)
	}
	text := fmt.Sprintf("# askuser inbox: the identity that opens the questions sealed to it\n# created: %s\n# public key: %s\n%s\n",
		time.Now().UTC().Format(time.RFC3339), id.Recipient(), id)
	// O_EXCL: two inboxes that start at once keep the same one.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		id, _, err := loadIdentity(path)
		return id, err
	}
	if err != nil {
		return nil, fmt.Errorf("make the inbox's identity: %w", err)
	}
	_, err = io.WriteString(f, text)
	if err := errors.Join(err, f.Close()); err != nil {
		return nil, fmt.Errorf("write the inbox's identity: %w", err)
	}
	return id, nil
}

// ageHeader begins every message age seals (its binary format).
var ageHeader = []byte("age-encryption.org/v1\n")

// sealed reports whether msg is sealed with age.
func sealed(msg []byte) bool { return bytes.HasPrefix(msg, ageHeader) }

// seal encrypts plain to every recipient given that is not ""; with none,
// plain goes as it is (the address allowed that: see
// address.sealRequired).
func seal(plain []byte, to ...string) ([]byte, error) {
	var rs []age.Recipient
	for _, r := range to {
		if r == "" {
			continue
		}
		x, err := age.ParseX25519Recipient(r)
		if err != nil {
			return nil, err
		}
		rs = append(rs, x)
	}
	if len(rs) == 0 {
		return plain, nil
	}
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, rs...)
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	// Written to a bytes.Buffer, it cannot fail.
	_, _ = w.Write(plain)
	_ = w.Close()
	return buf.Bytes(), nil
}

// sealJSON seals v, as JSON (see seal).
func sealJSON(v any, to ...string) ([]byte, error) {
	plain, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return seal(plain, to...)
}

// errNotForUs is a message sealed, but not to the identity that tried to
// open it.
var errNotForUs = errors.New("sealed to another recipient")

// maxStanzas is the most recipients that askuser seals to: an end's,
// its asker and the inbox.
const maxStanzas = 2

// fewStanzas is an identity that refuses a message sealed to more
// recipients than askuser seals to before any key work, which each of
// them costs: a thousand stanzas took the inbox a tenth of a second.
type fewStanzas struct{ age.Identity }

func (f fewStanzas) Unwrap(stanzas []*age.Stanza) ([]byte, error) {
	if len(stanzas) > maxStanzas {
		return nil, fmt.Errorf("sealed to %d recipients, more than askuser seals to", len(stanzas))
	}
	return f.Identity.Unwrap(stanzas)
}

// open decrypts what seal sealed, with id, and returns what was not sealed
// as it is. A message sealed to others is errNotForUs.
func open(msg []byte, id age.Identity, limit int64) ([]byte, error) {
	if !sealed(msg) {
		return msg, nil
	}
	r, err := age.Decrypt(bytes.NewReader(msg), fewStanzas{id})
	if _, ok := errors.AsType[*age.NoIdentityMatchError](err); ok {
		return nil, errNotForUs
	}
	if err != nil {
		return nil, err
	}
	plain, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(plain)) > limit {
		return nil, errors.New("too large")
	}
	return plain, nil
}

// newSecret is a set's secret: 32 random bytes, in hex.
func newSecret() string {
	b := make([]byte, 32)
	// crypto/rand.Read does not fail (it crashes the program instead).
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// setID and endID name a set's subjects after its secret: who does not
// know the secret cannot name its end (only the asker and the inboxes
// that opened the set know it), and cannot pass another set off under its
// id (the inbox checks that the secret inside names the subject).
func setID(secret string) string { return digest("askuser set", secret) }

func endID(secret string) string { return digest("askuser end", secret) }

// copyID names copy n of a set (n from 1): who knows only the set's id
// cannot take a copy's subject first.
func copyID(secret string, n int) string { return digest("askuser copy "+strconv.Itoa(n), secret) }

func digest(label, secret string) string {
	h := sha256.Sum256([]byte(label + "\x00" + secret))
	return hex.EncodeToString(h[:16])
}

// isSecret reports whether s is a set's secret, as newSecret makes one.
func isSecret(s string) bool { return isHex(s, 32) }

// isDigest reports whether id has the form of digest's: a set's id or an
// end's could be it.
func isDigest(id string) bool { return isHex(id, 16) }

// isHex reports whether s is n bytes in lower-case hex.
func isHex(s string, n int) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == n && s == strings.ToLower(s)
}
