package live

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// Config is how to reach a cluster, as `kviz live`'s flags say it.
type Config struct {
	Brokers []string // host:port seeds
	Timeout time.Duration

	TLS                bool
	CAFile             string
	CertFile, KeyFile  string
	InsecureSkipVerify bool
	// CAPEM, CertPEM and KeyPEM are the same given inline (a
	// --command-config's ssl.truststore.certificates, ssl.keystore.*);
	// NoHostnameCheck verifies the chain but not the host name
	// (ssl.endpoint.identification.algorithm empty).
	CAPEM, CertPEM, KeyPEM []byte
	NoHostnameCheck        bool

	SASLMechanism string // PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER; "" = none
	SASLUser      string
	SASLPassword  string
	OAuth         *OAuthConfig // OAUTHBEARER

	// Extra are more client options (tests add hooks).
	Extra []kgo.Opt
}

// SASLMechanisms are the mechanisms --sasl-mechanism accepts.
var SASLMechanisms = []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"}

// ParseBrokers splits --bootstrap-server's comma-separated list, checking
// that each is host:port.
func ParseBrokers(s string) ([]string, error) {
	var out []string
	for _, b := range strings.Split(s, ",") {
		b = strings.TrimSpace(b)
		if b == "" {
			continue
		}
		i := strings.LastIndexByte(b, ':')
		if i <= 0 || i == len(b)-1 || strings.Trim(b[i+1:], "0123456789") != "" {
			return nil, fmt.Errorf("--bootstrap-server: %q is not HOST:PORT", b)
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--bootstrap-server: give at least one HOST:PORT")
	}
	return out, nil
}

// maxRequestOverhead is the longest request timeout overhead kgo takes.
const maxRequestOverhead = 15 * time.Minute

// options turns the config into franz-go client options. A bad file or
// mechanism is an input error, reported before any connection.
func (c Config) options() ([]kgo.Opt, error) {
	opts := []kgo.Opt{kgo.SeedBrokers(c.Brokers...), kgo.ClientID("kviz")}
	if c.Timeout > 0 {
		// A dial gets a third of the read's time, so an address that
		// swallows packets leaves time to try the next bootstrap server.
		dial := max(c.Timeout/3, min(time.Second, c.Timeout))
		// kgo refuses a request timeout overhead over 15 minutes; a longer
		// --timeout still bounds the retries.
		overhead := min(c.Timeout, maxRequestOverhead)
		opts = append(opts, kgo.DialTimeout(dial), kgo.RetryTimeout(c.Timeout), kgo.RequestTimeoutOverhead(overhead))
	}
	tc, err := c.tlsConfig()
	if err != nil {
		return nil, err
	}
	if tc != nil {
		opts = append(opts, kgo.DialTLSConfig(tc))
	}
	mech, err := c.sasl()
	if err != nil {
		return nil, err
	}
	if mech != nil {
		opts = append(opts, kgo.SASL(mech))
	}
	return append(opts, c.Extra...), nil
}

func (c Config) tlsConfig() (*tls.Config, error) {
	if !c.TLS && c.CAFile == "" && c.CertFile == "" && c.KeyFile == "" && !c.InsecureSkipVerify && c.CAPEM == nil && c.CertPEM == nil {
		return nil, nil
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: c.InsecureSkipVerify} //nolint:gosec // the user asked for it
	caPEM := c.CAPEM
	if c.CAFile != "" {
		pem, err := os.ReadFile(c.CAFile)
		if err != nil {
			return nil, fmt.Errorf("--ca-file: %v", err)
		}
		caPEM = append(caPEM, pem...)
	}
	if caPEM != nil {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(caPEM) {
			return nil, fmt.Errorf("--ca-file %s: no PEM certificate in it", c.CAFile)
		}
		tc.RootCAs = pool
	}
	if (c.CertFile == "") != (c.KeyFile == "") {
		return nil, fmt.Errorf("--cert-file and --key-file go together")
	}
	if c.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("--cert-file/--key-file: %v", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	if c.CertPEM != nil {
		cert, err := tls.X509KeyPair(c.CertPEM, c.KeyPEM)
		if err != nil {
			return nil, fmt.Errorf("ssl.keystore.certificate.chain/ssl.keystore.key: %v", err)
		}
		tc.Certificates = append(tc.Certificates, cert)
	}
	if c.NoHostnameCheck && !c.InsecureSkipVerify {
		// verify the chain against the roots, not the host name
		tc.InsecureSkipVerify = true //nolint:gosec // verified below
		roots := tc.RootCAs
		tc.VerifyConnection = func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return fmt.Errorf("the broker sent no certificate")
			}
			inter := x509.NewCertPool()
			for _, ic := range cs.PeerCertificates[1:] {
				inter.AddCert(ic)
			}
			_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
			if err != nil {
				return &tls.CertificateVerificationError{UnverifiedCertificates: cs.PeerCertificates, Err: err}
			}
			return nil
		}
	}
	return tc, nil
}

func (c Config) sasl() (sasl.Mechanism, error) {
	if strings.EqualFold(c.SASLMechanism, "OAUTHBEARER") {
		if c.OAuth == nil || c.OAuth.Token == "" && c.OAuth.TokenURL == "" {
			return nil, fmt.Errorf("--sasl-mechanism OAUTHBEARER needs a token: $%s, or a --command-config with sasl.oauthbearer.token.endpoint.url", OAuthTokenEnv)
		}
		return c.OAuth.mechanism(), nil
	}
	if c.SASLMechanism == "" {
		if c.SASLUser != "" {
			return nil, fmt.Errorf("--sasl-user needs --sasl-mechanism (%s)", strings.Join(SASLMechanisms, ", "))
		}
		return nil, nil
	}
	if c.SASLUser == "" {
		return nil, fmt.Errorf("--sasl-mechanism %s needs --sasl-user", c.SASLMechanism)
	}
	switch strings.ToUpper(c.SASLMechanism) {
	case "PLAIN":
		return plain.Auth{User: c.SASLUser, Pass: c.SASLPassword}.AsMechanism(), nil
	case "SCRAM-SHA-256":
		return scram.Auth{User: c.SASLUser, Pass: c.SASLPassword}.AsSha256Mechanism(), nil
	case "SCRAM-SHA-512":
		return scram.Auth{User: c.SASLUser, Pass: c.SASLPassword}.AsSha512Mechanism(), nil
	}
	return nil, fmt.Errorf("--sasl-mechanism %q is not one of %s", c.SASLMechanism, strings.Join(SASLMechanisms, ", "))
}
