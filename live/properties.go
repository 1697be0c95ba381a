package live

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
)

// ReadProperties reads a Java .properties file as Kafka's tools read
// --command-config: key=value or key: value lines, # and ! comments, a
// trailing backslash continuing a line. An error names the file and line.
func ReadProperties(name string, r io.Reader) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line, start := 0, 0
	var pending string
	for sc.Scan() {
		line++
		text := sc.Text()
		if pending == "" {
			start = line
			text = strings.TrimLeft(text, " \t\f")
			if text == "" || text[0] == '#' || text[0] == '!' {
				continue
			}
		} else {
			text = strings.TrimLeft(text, " \t\f")
		}
		if strings.HasSuffix(text, `\`) && !strings.HasSuffix(text, `\\`) {
			pending += strings.TrimSuffix(text, `\`)
			continue
		}
		text, pending = pending+text, ""
		i := strings.IndexAny(text, "=:")
		if i <= 0 {
			return nil, fmt.Errorf("%s:%d: %q is not key=value", name, start, text)
		}
		key := strings.TrimSpace(text[:i])
		out[key] = strings.TrimSpace(unescapeProperty(text[i+1:]))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	return out, nil
}

func unescapeProperty(s string) string {
	r := strings.NewReplacer(`\\`, `\`, `\n`, "\n", `\t`, "\t", `\=`, "=", `\:`, ":", `\ `, " ")
	return r.Replace(s)
}

// securityProtocols are Kafka's security.protocol values.
var securityProtocols = []string{"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"}

// jaasOption matches key="value" (or key=value) in a sasl.jaas.config;
// compiled on first use, not at every kviz start (issue 25).
var jaasOption = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([A-Za-z_.]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;]+))`)
})

// parseJAAS reads a sasl.jaas.config: its login module and options.
func parseJAAS(s string) (string, map[string]string) {
	s = strings.TrimSpace(s)
	module, rest, _ := strings.Cut(s, " ")
	opts := map[string]string{}
	for _, m := range jaasOption().FindAllStringSubmatch(rest, -1) {
		v := m[3]
		if m[2] != "" || m[3] == "" {
			v = strings.ReplaceAll(m[2], `\"`, `"`)
		}
		opts[m[1]] = v
	}
	return module, opts
}

// ApplyProperties fills the config from a --command-config file's
// properties, as Kafka's clients read them: bootstrap.servers (when the
// config has none yet), security.protocol, sasl.mechanism and
// sasl.jaas.config (PLAIN and SCRAM usernames and passwords; OAUTHBEARER
// client credentials with sasl.oauthbearer.token.endpoint.url), and ssl.*
// with PEM stores (JKS and PKCS12 are refused: kviz reads PEM only). name
// is the file, for messages.
func (c *Config) ApplyProperties(name string, p map[string]string) error {
	bad := func(key, format string, args ...any) error {
		return fmt.Errorf("%s: %s: %s", name, key, fmt.Sprintf(format, args...))
	}
	if len(c.Brokers) == 0 && p["bootstrap.servers"] != "" {
		brokers, err := ParseBrokers(p["bootstrap.servers"])
		if err != nil {
			return bad("bootstrap.servers", "%v", strings.TrimPrefix(err.Error(), "--bootstrap-server: "))
		}
		c.Brokers = brokers
	}
	proto := strings.ToUpper(p["security.protocol"])
	switch proto {
	case "", "PLAINTEXT":
	case "SSL", "SASL_SSL":
		c.TLS = true
	case "SASL_PLAINTEXT":
	default:
		return bad("security.protocol", "%q is not one of %s", p["security.protocol"], strings.Join(securityProtocols, ", "))
	}
	sasl := strings.HasPrefix(proto, "SASL_")
	if err := c.applySSL(name, p); err != nil {
		return err
	}
	if !sasl {
		if p["sasl.mechanism"] != "" || p["sasl.jaas.config"] != "" {
			return bad("sasl.mechanism", "given, but security.protocol is %s: SASL needs SASL_PLAINTEXT or SASL_SSL", orPlaintext(proto))
		}
		return nil
	}
	mech := strings.ToUpper(p["sasl.mechanism"])
	if mech == "" {
		mech = "GSSAPI" // Kafka's default
	}
	module, opts := parseJAAS(p["sasl.jaas.config"])
	switch mech {
	case "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512":
		if opts["username"] == "" {
			return bad("sasl.jaas.config", "%s needs username=\"...\" and password=\"...\" (a %s)", mech, loginModuleFor(mech))
		}
		c.SASLMechanism, c.SASLUser, c.SASLPassword = mech, opts["username"], opts["password"]
	case "OAUTHBEARER":
		c.SASLMechanism = mech
		c.OAuth = &OAuthConfig{TokenURL: p["sasl.oauthbearer.token.endpoint.url"], ClientID: opts["clientId"],
			ClientSecret: opts["clientSecret"], Scope: opts["scope"]}
		if c.OAuth.TokenURL == "" {
			return bad("sasl.oauthbearer.token.endpoint.url", "OAUTHBEARER needs the token endpoint (with clientId and clientSecret in sasl.jaas.config), or a token in $%s", OAuthTokenEnv)
		}
		if c.OAuth.ClientID == "" || c.OAuth.ClientSecret == "" {
			return bad("sasl.jaas.config", "OAUTHBEARER needs clientId=\"...\" and clientSecret=\"...\" in %s", module)
		}
	default:
		return bad("sasl.mechanism", "%s is not supported: kviz speaks PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER", mech)
	}
	return nil
}

func orPlaintext(p string) string {
	if p == "" {
		return "PLAINTEXT"
	}
	return p
}

func loginModuleFor(mech string) string {
	if mech == "PLAIN" {
		return "org.apache.kafka.common.security.plain.PlainLoginModule"
	}
	return "org.apache.kafka.common.security.scram.ScramLoginModule"
}

// applySSL reads the ssl.* keys: PEM trust and key stores, as files
// (ssl.truststore.location, ssl.keystore.location) or inline
// (ssl.truststore.certificates, ssl.keystore.certificate.chain and
// ssl.keystore.key), and an empty ssl.endpoint.identification.algorithm
// (no host name check).
func (c *Config) applySSL(name string, p map[string]string) error {
	bad := func(key, format string, args ...any) error {
		return fmt.Errorf("%s: %s: %s", name, key, fmt.Sprintf(format, args...))
	}
	for _, key := range []string{"ssl.truststore.type", "ssl.keystore.type"} {
		t := strings.ToUpper(p[key])
		if t == "" && p[strings.Replace(key, ".type", ".location", 1)] != "" {
			t = "JKS" // Kafka's default store type
		}
		if t != "" && t != "PEM" {
			return bad(key, "%s stores are not read: kviz reads PEM (set %s=PEM; convert with keytool -exportcert -rfc, or openssl pkcs12 -nodes)", t, key)
		}
	}
	if v, ok := p["ssl.key.password"]; ok && v != "" {
		return bad("ssl.key.password", "an encrypted key is not read: give the key unencrypted (openssl pkey -in key.pem -out plain.pem)")
	}
	if f := p["ssl.truststore.location"]; f != "" {
		c.CAFile, c.TLS = f, true
	}
	if pem := p["ssl.truststore.certificates"]; pem != "" {
		c.CAPEM, c.TLS = []byte(pem), true
	}
	if f := p["ssl.keystore.location"]; f != "" {
		c.CertFile, c.KeyFile, c.TLS = f, f, true // one PEM file with the key and the chain
	}
	if chain, key := p["ssl.keystore.certificate.chain"], p["ssl.keystore.key"]; chain != "" || key != "" {
		if chain == "" || key == "" {
			return bad("ssl.keystore.key", "ssl.keystore.key and ssl.keystore.certificate.chain go together")
		}
		c.CertPEM, c.KeyPEM, c.TLS = []byte(chain), []byte(key), true
	}
	if v, ok := p["ssl.endpoint.identification.algorithm"]; ok && strings.TrimSpace(v) == "" {
		c.NoHostnameCheck = true
	}
	return nil
}

// OAuthTokenEnv holds an OAUTHBEARER token for --sasl-mechanism OAUTHBEARER.
const OAuthTokenEnv = "KVIZ_SASL_OAUTH_TOKEN"

// OAuthConfig is how kviz gets an OAUTHBEARER token: a fixed one, or the
// OAuth client-credentials grant against a token endpoint (as Kafka's
// OAuthBearerLoginCallbackHandler does with clientId and clientSecret).
type OAuthConfig struct {
	Token                            string
	TokenURL, ClientID, ClientSecret string
	Scope                            string
}

// mechanism is franz-go's OAUTHBEARER mechanism over the config.
func (o *OAuthConfig) mechanism() sasl.Mechanism {
	if o.Token != "" {
		return oauth.Auth{Token: o.Token}.AsMechanism()
	}
	return oauth.Oauth(func(ctx context.Context) (oauth.Auth, error) {
		tok, err := o.fetch(ctx)
		return oauth.Auth{Token: tok}, err
	})
}

// fetch asks the token endpoint for a token (RFC 6749 4.4).
func (o *OAuthConfig) fetch(ctx context.Context) (string, error) {
	form := url.Values{"grant_type": {"client_credentials"}}
	if o.Scope != "" {
		form.Set("scope", o.Scope)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return "", fmt.Errorf("OAUTHBEARER token endpoint %s: %v", o.TokenURL, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(o.ClientID), url.QueryEscape(o.ClientSecret))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("OAUTHBEARER token endpoint %s: %v", o.TokenURL, err)
	}
	defer resp.Body.Close()
	var body struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&body); err != nil || resp.StatusCode != http.StatusOK || body.AccessToken == "" {
		return "", fmt.Errorf("OAUTHBEARER token endpoint %s answered %s %s", o.TokenURL, resp.Status, body.Error)
	}
	return body.AccessToken, nil
}

// ReadPropertiesFile reads --command-config FILE.
func ReadPropertiesFile(name string) (map[string]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("--command-config: %v", err)
	}
	defer f.Close()
	return ReadProperties(name, f)
}
