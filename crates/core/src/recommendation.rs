//! Advice as data.
//!
//! A recommendation is a decision, so it is a record, not a sentence: the
//! question it answers ([`Recommendation::topic`]), what to use with typed
//! parameters ([`Choice`]), the figure it was judged by ([`Metric`]), one
//! ratio with one interval against a named alternative ([`Comparison`]),
//! the rule that decided it, how sure it is ([`Confidence`]) and the
//! measurements it rests on (their case keys). Suites produce these
//! records from a run (their advice hook); the run summary, `recommend` in
//! every format and the report's cards are renderings of the same records,
//! so no two of them can disagree or quote two numbers for one claim.

use crate::model::Measurement;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Whether the advice says what to use or what to stay away from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stance {
    /// Use the choice.
    Use,
    /// Avoid the choice.
    Avoid,
}

/// A parameter value as data: numbers stay numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// A whole number (memory in KiB, passes, lanes, bytes).
    Int(i64),
    /// A number with a fraction.
    Float(f64),
    /// Anything else (an encoding, a mode).
    Text(String),
}

impl ParamValue {
    /// The value as stored in a measurement's parameters: a whole number
    /// when it parses as one, text otherwise.
    pub fn parse(text: &str) -> Self {
        text.parse::<i64>()
            .map(ParamValue::Int)
            .unwrap_or_else(|_| ParamValue::Text(text.to_string()))
    }
}

impl std::fmt::Display for ParamValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Float(v) => write!(f, "{v}"),
            ParamValue::Text(v) => f.write_str(v),
        }
    }
}

/// What to use (or avoid): a primitive from one backend, with the
/// parameters that make it the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    /// The primitive as the suite names it (`AEGIS-128L`, `Argon2id`).
    pub primitive: String,
    /// The library (or runtime) that provides it.
    pub backend: String,
    /// Parameters that belong to the answer (`m_kib`, `t`, `p`, `mode`,
    /// `input_bytes`), typed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, ParamValue>,
}

impl Choice {
    /// A choice without parameters.
    pub fn new(primitive: impl Into<String>, backend: impl Into<String>) -> Self {
        Self {
            primitive: primitive.into(),
            backend: backend.into(),
            params: BTreeMap::new(),
        }
    }

    /// The primitive and backend of a measurement.
    pub fn of(m: &Measurement) -> Self {
        Self::new(&m.primitive, &m.backend)
    }

    /// This choice with one more parameter.
    pub fn param(mut self, name: impl Into<String>, value: ParamValue) -> Self {
        self.params.insert(name.into(), value);
        self
    }

    /// `AEGIS-128L (libsodium)`.
    pub fn label(&self) -> String {
        format!("{} ({})", self.primitive, self.backend)
    }
}

/// The unit of a [`Metric`]; JSON field names carry it too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MetricUnit {
    /// Bytes per second (bulk throughput).
    BytesPerS,
    /// Operations (messages, hashes, handshakes) per second.
    OpsPerS,
    /// Nanoseconds per operation (latency).
    Ns,
    /// Characters per second (EC-ElGamal's seed unit).
    CharsPerS,
}

/// The figure a choice was judged by.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metric {
    /// What is measured (`throughput at 16 KiB`, `time per hash`).
    pub name: String,
    /// Its unit.
    pub unit: MetricUnit,
    /// The value, in `unit`.
    pub value: f64,
}

/// How a [`Comparison`]'s ratio reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatioKind {
    /// The alternative's time over the choice's: above 1, the choice is faster.
    Speedup,
    /// The choice's time over the alternative's: above 1, the choice costs more.
    TimeRatio,
    /// The choice's time over the target's (a latency target, Argon2).
    OfTarget,
}

/// One ratio with one interval, against a named alternative.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// What the choice is compared with; `None` for a target.
    pub against: Option<Choice>,
    /// How the ratio reads.
    pub kind: RatioKind,
    /// The ratio.
    pub ratio: f64,
    /// Its 95% interval, low end.
    pub ci_low: f64,
    /// Its 95% interval, high end.
    pub ci_high: f64,
    /// True when both were timed in the same rounds (a paired ratio).
    pub paired: bool,
}

/// How sure the advice is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum Confidence {
    /// The choice is clearly ahead on the intervals.
    Decided,
    /// Candidates could not be told apart on the intervals; the rule chose.
    Tie {
        /// The candidates tied with the choice.
        with: Vec<Choice>,
    },
    /// The run could not decide (too few rounds, too wide an interval).
    Inconclusive {
        /// Why, in a few words.
        reason: String,
    },
    /// Nothing verified answers the topic in this run.
    NotMeasured {
        /// Why, in a few words.
        reason: String,
    },
}

impl Confidence {
    /// One word for tables: decided, tie, inconclusive, not measured.
    pub fn word(&self) -> &'static str {
        match self {
            Confidence::Decided => "decided",
            Confidence::Tie { .. } => "tie",
            Confidence::Inconclusive { .. } => "inconclusive",
            Confidence::NotMeasured { .. } => "not measured",
        }
    }
}

/// One piece of advice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recommendation {
    /// A stable identifier of the question (`aead.bulk`, `argon2id.250ms`).
    pub topic: String,
    /// The question as a reader says it (`AEAD, bulk data`).
    pub title: String,
    /// Use or avoid.
    pub stance: Stance,
    /// The answer; `None` when nothing verified answers the topic.
    pub choice: Option<Choice>,
    /// The figure the choice was judged by.
    pub metric: Option<Metric>,
    /// The one ratio the advice quotes, with its interval.
    pub comparison: Option<Comparison>,
    /// The rule that decided (`fastest on paired intervals; ties broken by
    /// key length, standard status, backend`).
    pub rule: String,
    /// How sure it is.
    pub confidence: Confidence,
    /// Case keys of the measurements it rests on
    /// ([`Measurement::case_key`]), the choice's first.
    pub evidence: Vec<String>,
    /// What a reader must know before acting on it (one short sentence
    /// each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cautions: Vec<String>,
    /// Further explanation, for `recommend --explain` and the report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<String>,
}

impl Recommendation {
    /// A recommendation to use `choice`, decided by `rule`; add the
    /// metric, comparison and evidence with the builder methods.
    pub fn to_use(
        topic: impl Into<String>,
        title: impl Into<String>,
        choice: Choice,
        rule: impl Into<String>,
    ) -> Self {
        Self {
            topic: topic.into(),
            title: title.into(),
            stance: Stance::Use,
            choice: Some(choice),
            metric: None,
            comparison: None,
            rule: rule.into(),
            confidence: Confidence::Decided,
            evidence: Vec::new(),
            cautions: Vec::new(),
            details: Vec::new(),
        }
    }

    /// A topic this run cannot answer, and why.
    pub fn not_measured(
        topic: impl Into<String>,
        title: impl Into<String>,
        reason: impl Into<String>,
    ) -> Self {
        Self {
            confidence: Confidence::NotMeasured {
                reason: reason.into(),
            },
            choice: None,
            ..Self::to_use(topic, title, Choice::new("", ""), "")
        }
    }

    /// This advice as a warning to avoid its choice.
    pub fn avoid(mut self) -> Self {
        self.stance = Stance::Avoid;
        self
    }

    /// With the figure it was judged by.
    pub fn metric(mut self, name: impl Into<String>, unit: MetricUnit, value: f64) -> Self {
        self.metric = Some(Metric {
            name: name.into(),
            unit,
            value,
        });
        self
    }

    /// With its one comparison.
    pub fn comparison(mut self, comparison: Comparison) -> Self {
        self.comparison = Some(comparison);
        self
    }

    /// With its confidence.
    pub fn confidence(mut self, confidence: Confidence) -> Self {
        self.confidence = confidence;
        self
    }

    /// With one more measurement it rests on.
    pub fn rests_on(mut self, m: &Measurement) -> Self {
        let key = m.case_key();
        if !self.evidence.contains(&key) {
            self.evidence.push(key);
        }
        self
    }

    /// With a caution.
    pub fn caution(mut self, text: impl Into<String>) -> Self {
        self.cautions.push(text.into());
        self
    }

    /// With a line of explanation.
    pub fn detail(mut self, text: impl Into<String>) -> Self {
        self.details.push(text.into());
        self
    }
}

/// What advice is asked for: the run it is drawn from and the reader's
/// own targets. Suites read what concerns them and ignore the rest.
#[derive(Debug, Clone, Copy)]
pub struct AdviceRequest<'a> {
    /// The run the advice is drawn from.
    pub run: &'a crate::model::Run,
    /// Latency targets for work that is slow on purpose (password
    /// hashing), in nanoseconds.
    pub latency_targets_ns: &'a [f64],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_stay_numbers_in_json() {
        let r = Recommendation::to_use(
            "argon2id.250ms",
            "Argon2id, 250 ms",
            Choice::new("Argon2id", "libargon2")
                .param("m_kib", ParamValue::parse("65536"))
                .param("t", ParamValue::Int(4))
                .param("mode", ParamValue::parse("serial")),
            "most memory whose interval fits the target",
        )
        .metric("time per hash", MetricUnit::Ns, 2.4e8)
        .comparison(Comparison {
            against: None,
            kind: RatioKind::OfTarget,
            ratio: 0.96,
            ci_low: 0.94,
            ci_high: 0.99,
            paired: false,
        });
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["choice"]["params"]["m_kib"], 65536);
        assert_eq!(v["choice"]["params"]["mode"], "serial");
        assert_eq!(v["metric"]["unit"], "ns");
        assert_eq!(v["comparison"]["ci_low"], 0.94);
        assert_eq!(v["confidence"]["state"], "decided");
        let back: Recommendation = serde_json::from_value(v).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn a_topic_not_measured_has_no_choice_and_says_why() {
        let r = Recommendation::not_measured("aead.bulk", "AEAD, bulk data", "no AEAD measured");
        assert!(r.choice.is_none());
        assert_eq!(r.confidence.word(), "not measured");
    }
}
