public enum VellumTerminal {}
