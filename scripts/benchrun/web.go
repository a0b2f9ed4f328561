//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"sync"
	"time"
)

const webTimeout = 10 * time.Second

// webAnswer runs c, a program that serves small's question on a web page
// and prints the address on stderr as askuser --ui web does, and answers
// it as the page's script does: it loads the page, starts the long poll
// on /wait, and posts the form (q0=2) to /answer with the page's Origin.
// It returns the time from sending the POST to reading the answer on
// stdout.
func webAnswer(c command) (time.Duration, error) {
	addr := newLineWatch(func(s string) bool { return strings.HasPrefix(s, webPrompt) })
	out := newLineWatch(func(string) bool { return true })
	cmd := exec.Command(c.path, c.args...)
	cmd.Stdout, cmd.Stderr = out, addr
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	kill := func(err error) (time.Duration, error) {
		// The run has failed with err already.
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return 0, fmt.Errorf("%s: %w", c, err)
	}
	page, err := pageAddress(addr)
	if err != nil {
		return kill(err)
	}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: webTimeout}
	sent, posted, err := postAnswer(client, page)
	if err != nil {
		return kill(err)
	}
	var got line
	select {
	case got = <-out.line:
	case <-time.After(webTimeout):
		return kill(fmt.Errorf("no answer on stdout within %v of the POST", webTimeout))
	}
	if got.text != c.want {
		return kill(fmt.Errorf("printed %q, want %q", got.text, c.want))
	}
	if err := <-posted; err != nil {
		return kill(err)
	}
	if err := cmd.Wait(); err != nil {
		return 0, fmt.Errorf("%s: %v", c, err)
	}
	return got.at.Sub(sent), nil
}

// pageAddress reads the page's address from the line askuser prints on
// stderr.
func pageAddress(addr *lineWatch) (*url.URL, error) {
	select {
	case l := <-addr.line:
		return url.Parse(strings.TrimSpace(strings.TrimPrefix(l.text, webPrompt)))
	case <-time.After(webTimeout):
		return nil, fmt.Errorf("no address on stderr within %v", webTimeout)
	}
}

// postAnswer loads the page, starts its long poll, and posts the form as
// the page's script does. It returns when the POST was sent, and the
// POST's outcome once it has one.
func postAnswer(client *http.Client, page *url.URL) (time.Time, <-chan error, error) {
	origin := page.Scheme + "://" + page.Host
	token := url.QueryEscape(page.Query().Get("token"))
	if err := get(client, page.String()); err != nil {
		return time.Time{}, nil, err
	}
	// The page's long poll, held until the answer.
	go func() { _ = get(client, origin+"/wait?token="+token) }() // ends with the run
	// Give it time to reach the server, as it would while a person reads.
	time.Sleep(20 * time.Millisecond)

	req, err := http.NewRequest("POST", origin+"/answer?token="+token, strings.NewReader("q0=2&q0-other="))
	if err != nil {
		return time.Time{}, nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", origin)
	posted := make(chan error, 1)
	sent := time.Now()
	go func() {
		resp, err := client.Do(req)
		if err == nil {
			_, err = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if err == nil && resp.StatusCode != http.StatusOK {
				err = fmt.Errorf("POST /answer: %s", resp.Status)
			}
		}
		posted <- err
	}()
	return sent, posted, nil
}

// webPrompt starts the line on stderr that gives the page's address.
const webPrompt = "Answer in your browser: "

// A line is a line of output and when it was read.
type line struct {
	text string
	at   time.Time
}

// A lineWatch is a program's stdout or stderr: it passes on the first
// complete line that match accepts, newline included, as soon as it is
// read, and takes in the rest.
type lineWatch struct {
	match func(string) bool
	line  chan line
	mu    sync.Mutex
	buf   []byte
	found bool
}

func newLineWatch(match func(string) bool) *lineWatch {
	return &lineWatch{match: match, line: make(chan line, 1)}
}

func (w *lineWatch) Write(p []byte) (int, error) {
	at := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.found {
		return len(p), nil
	}
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		s := string(w.buf[:i+1])
		w.buf = w.buf[i+1:]
		if w.match(strings.TrimSpace(s)) {
			w.found = true
			w.line <- line{text: s, at: at}
			return len(p), nil
		}
	}
}

// get loads u and reads the whole reply, as a browser loads a page.
func get(client *http.Client, u string) error {
	resp, err := client.Get(u)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }() // read to the end below
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return nil
}
